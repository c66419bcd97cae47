import type { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';
import { canonicalPagePath } from '@portfolio/types/site';

import { http } from '../../lib/http';
import { getVisitorId } from './visitor-id';

/** Spec section 9: heartbeat interval. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * Sends one heartbeat for a signed-in user or a guest; failures are only logged. The page is
 * reported as the site spells it (/gallery → /Gallery), so Live Activity lists it once; the
 * server validates the body.
 */
export async function sendHeartbeat(isSignedIn: boolean, currentPage: string): Promise<void> {
  const page = canonicalPagePath(currentPage).slice(0, 512);
  try {
    if (isSignedIn) {
      const body: HeartbeatRequest = { currentPage: page, visitorId: getVisitorId() };
      await http.post('/api/auth/heartbeat', body);
      return;
    }
    const body: AnonymousHeartbeatRequest = { currentPage: page, visitorId: getVisitorId() };
    await http.post('/api/anonymous-heartbeat', body);
  } catch (error) {
    console.warn('Heartbeat failed', error);
  }
}
