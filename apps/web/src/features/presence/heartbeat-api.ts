import { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';

import { http } from '../../lib/http';
import { getVisitorId } from './visitor-id';

/** Spec section 9: heartbeat interval. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/** Sends one heartbeat for a signed-in user or a guest; failures are only logged. */
export async function sendHeartbeat(isSignedIn: boolean, currentPage: string): Promise<void> {
  const page = currentPage.slice(0, 512);
  try {
    if (isSignedIn) {
      await http.post(
        '/api/auth/heartbeat',
        HeartbeatRequest.parse({ currentPage: page, visitorId: getVisitorId() }),
      );
      return;
    }
    await http.post(
      '/api/anonymous-heartbeat',
      AnonymousHeartbeatRequest.parse({ currentPage: page, visitorId: getVisitorId() }),
    );
  } catch (error) {
    console.warn('Heartbeat failed', error);
  }
}
