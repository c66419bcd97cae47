import type { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';
import { canonicalPagePath } from '@portfolio/types/site';

import { http } from '../../lib/http';
import { getVisitorId } from './visitor-id';

/** Spec section 9: heartbeat interval. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * Sends one heartbeat for a signed-in user or a guest; failures are only logged. The page is
 * reported as the site spells it (/gallery → /Gallery), so Live Activity lists it once; the
 * server validates the body. Site analytics' fields (the page view a heartbeat starts, the game
 * open in the viewer) come from page-view.ts, a chunk of its own loaded with the first heartbeat
 * so the home page's entry does not carry it; presence goes on without them if it cannot load.
 */
export async function sendHeartbeat(isSignedIn: boolean, currentPage: string): Promise<void> {
  const page = canonicalPagePath(currentPage).slice(0, 512);
  const analytics = await import('./page-view').then(
    (module) => module.heartbeatFields(page),
    () => ({}),
  );
  const body: HeartbeatRequest | AnonymousHeartbeatRequest = {
    currentPage: page,
    visitorId: getVisitorId(),
    ...analytics,
  };
  try {
    await http.post(isSignedIn ? '/api/auth/heartbeat' : '/api/anonymous-heartbeat', body);
  } catch (error) {
    console.warn('Heartbeat failed', error);
  }
}
