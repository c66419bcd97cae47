import { useEffect } from 'react';
import { useNavigate } from 'react-router';

import { createSocket } from '../../lib/socket';
import { ADMIN_POLL_INTERVAL_MS } from './dashboard-api';
import { resetDashboardStore, useDashboardStore } from './dashboard-store';

/**
 * Runs the dashboard while it is mounted: checks the user is still an admin (else /login),
 * loads both calls and polls them every 30 s, and listens on Socket.IO for live updates.
 */
export function useAdminDashboard(): void {
  const navigate = useNavigate();
  const isAccessDenied = useDashboardStore((state) => state.isAccessDenied);

  useEffect(() => {
    const controller = new AbortController();
    const { verifyAdmin, refresh } = useDashboardStore.getState();
    void verifyAdmin(controller.signal);
    void refresh(controller.signal);
    const timer = setInterval(() => {
      void refresh(controller.signal);
    }, ADMIN_POLL_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
      // Another admin may sign in before the next visit: start that visit from nothing.
      resetDashboardStore();
    };
  }, []);

  useEffect(() => {
    const { setLive, applyPresenceUpdate, applyGameClick } = useDashboardStore.getState();
    const socket = createSocket();
    socket.on('connect', () => setLive(true));
    socket.on('disconnect', () => setLive(false));
    socket.on('connect_error', () => setLive(false));
    socket.on('presence:update', applyPresenceUpdate);
    socket.on('game:click', applyGameClick);
    return () => {
      socket.disconnect();
      setLive(false);
    };
  }, []);

  useEffect(() => {
    if (isAccessDenied) {
      // admin=true: the login page says an admin sign-in is needed, and lets a signed-in
      // non-admin sign in as another account instead of sending them on
      void navigate('/login?admin=true', { replace: true });
    }
  }, [isAccessDenied, navigate]);
}
