import {
  ActiveUsersResponse,
  type CurrentUser,
  CurrentUserResponse,
  VisitorStatsResponse,
} from '@portfolio/types';

import { http } from '../../lib/http';

/** Spec section 9: admin polling interval. */
export const ADMIN_POLL_INTERVAL_MS = 30_000;

export function getActiveUsers(signal?: AbortSignal): Promise<ActiveUsersResponse> {
  return http.get('/api/active-users', ActiveUsersResponse, signal);
}

export function getVisitorStats(signal?: AbortSignal): Promise<VisitorStatsResponse> {
  return http.get('/api/visitor-stats', VisitorStatsResponse, signal);
}

/**
 * Asks the server who is signed in now, rather than trusting the user loaded at start-up; null
 * for a guest.
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  return (await http.get('/api/auth/current-user', CurrentUserResponse, signal)).user;
}
