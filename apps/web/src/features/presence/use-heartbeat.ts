import { useEffect } from 'react';
import { useLocation } from 'react-router';

import { useAuthStore } from '../auth';
import { HEARTBEAT_INTERVAL_MS, sendHeartbeat } from './heartbeat-api';

/**
 * Reports presence: a heartbeat at load, every 30 s, and again (restarting the timer) whenever
 * the signed-in user, the page or the open game changes, so the admin view sees the current
 * page. (A closing tab says so from page-view.ts, loaded with the first heartbeat.)
 */
export function useHeartbeat(): void {
  const userId = useAuthStore((state) => state.user?.id ?? null);
  // the query too: opening a game (?play=) reports it at once
  const { pathname, search } = useLocation();

  useEffect(() => {
    const isSignedIn = userId !== null;
    void sendHeartbeat(isSignedIn, pathname);
    const timer = setInterval(() => {
      void sendHeartbeat(isSignedIn, pathname);
    }, HEARTBEAT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [userId, pathname, search]);
}
