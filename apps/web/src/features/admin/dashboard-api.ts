import { ActiveUsersResponse, CurrentUser, VisitorStatsResponse } from '@portfolio/types';

import { http } from '../../lib/http';

/** Spec section 9: admin polling interval. */
export const ADMIN_POLL_INTERVAL_MS = 30_000;

export function getActiveUsers(signal?: AbortSignal): Promise<ActiveUsersResponse> {
  return http.get('/api/active-users', ActiveUsersResponse, signal);
}

export function getVisitorStats(signal?: AbortSignal): Promise<VisitorStatsResponse> {
  return http.get('/api/visitor-stats', VisitorStatsResponse, signal);
}

/** Asks the server who is signed in now, rather than trusting the user loaded at start-up. */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return http.get('/api/auth/current-user', CurrentUser, signal);
}
