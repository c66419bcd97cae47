import { useEffect } from 'react';
import { useLocation } from 'react-router';

import { useAuthStore } from '../auth/auth-store';
import { HEARTBEAT_INTERVAL_MS, sendHeartbeat } from './heartbeat-api';

/**
 * Reports presence: a heartbeat at load, every 30 s, and again (restarting the timer) whenever
 * the signed-in user or the page changes, so the admin view sees the current page.
 */
export function useHeartbeat(): void {
  const userId = useAuthStore((state) => state.user?.id ?? null);
  const { pathname } = useLocation();

  useEffect(() => {
    const isSignedIn = userId !== null;
    void sendHeartbeat(isSignedIn, pathname);
    const timer = setInterval(() => {
      void sendHeartbeat(isSignedIn, pathname);
    }, HEARTBEAT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [userId, pathname]);
}
