import type { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';

import { http } from '../../lib/http';
import { getVisitorId } from './visitor-id';

/** Spec section 9: heartbeat interval. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * Sends one heartbeat for a signed-in user or a guest; failures are only logged; the server
 * validates the body. The page as the site spells it (/gallery → /Gallery, so Live Activity lists
 * it once) and site analytics' fields (the page view a heartbeat starts, the game open in the
 * viewer) come from page-view.ts, a chunk of its own loaded with the first heartbeat so the home
 * page's entry does not carry it; presence goes on with the path as it is if it cannot load.
 */
export async function sendHeartbeat(isSignedIn: boolean, currentPage: string): Promise<void> {
  const fields = await import('./page-view').then(
    (module) => module.heartbeatFields(currentPage),
    () => ({ currentPage: currentPage.slice(0, 512) }),
  );
  const body: HeartbeatRequest | AnonymousHeartbeatRequest = {
    visitorId: getVisitorId(),
    ...fields,
  };
  try {
    await http.post(isSignedIn ? '/api/auth/heartbeat' : '/api/anonymous-heartbeat', body);
  } catch (error) {
    console.warn('Heartbeat failed', error);
  }
}
