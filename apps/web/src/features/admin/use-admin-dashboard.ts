import {
  ActiveUsersResponse,
  GameClickEvent,
  type GameClickStats,
  type VisitorStatsResponse,
} from '@portfolio/types';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { isHttpError } from '../../lib/http';
import { createSocket } from '../../lib/socket';
import { useResource, warnOnFailure } from '../../ui/use-resource';
import {
  ADMIN_POLL_INTERVAL_MS,
  getActiveUsers,
  getCurrentUser,
  getVisitorStats,
} from './dashboard-api';

export const ACTIVE_USERS_ERROR = 'Failed to fetch active users';
export const VISITOR_STATS_ERROR = 'Failed to fetch visitor stats';

/** What the dashboard shows; each call's last good data stays on screen when a poll fails. */
export interface AdminDashboard {
  activeUsers: ActiveUsersResponse | null;
  activeUsersError: string | null;
  visitorStats: VisitorStatsResponse | null;
  visitorStatsError: string | null;
  /** True while the Socket.IO connection is up and pushing live updates. */
  isLive: boolean;
}

function isAuthFailure(error: unknown): boolean {
  return isHttpError(error) && (error.status === 401 || error.status === 403);
}

function addClick(stats: GameClickStats | undefined, isAuthenticated: boolean): GameClickStats {
  const current = stats ?? { totalClicks: 0, authenticatedClicks: 0, anonymousClicks: 0 };
  return {
    totalClicks: current.totalClicks + 1,
    authenticatedClicks: current.authenticatedClicks + (isAuthenticated ? 1 : 0),
    anonymousClicks: current.anonymousClicks + (isAuthenticated ? 0 : 1),
  };
}

/**
 * Whether the signed-in user is still an admin, asked of the server rather than trusting the
 * user loaded at start-up: false for a guest, a user who is no longer an admin, or a refused
 * session; true meanwhile, and on a network hiccup (not proof of lost rights: the data calls
 * show their errors).
 */
async function isStillAdmin(signal: AbortSignal): Promise<boolean> {
  try {
    return (await getCurrentUser(signal))?.role === 'admin';
  } catch (error) {
    if (isAuthFailure(error)) {
      return false;
    }
    if (!signal.aborted) {
      console.warn('Could not check the current user', error);
    }
    return true;
  }
}

/**
 * Runs the dashboard while it is mounted: checks the user is still an admin (else /login),
 * loads both calls and polls them every 30 s, and listens on Socket.IO for live updates.
 */
export function useAdminDashboard(): AdminDashboard {
  const navigate = useNavigate();
  const isAdmin = useResource(isStillAdmin, 'Could not check the current user').data ?? true;
  // a data call the server refused: the session is no longer an admin's
  const [isRefused, setRefused] = useState(false);
  const [isLive, setLive] = useState(false);
  /**
   * The newest pushed presence snapshot and a count of them, so a poll answer that was already
   * in flight cannot overwrite the newer pushed data.
   */
  const pushed = useRef<{ revision: number; snapshot: ActiveUsersResponse | null }>({
    revision: 0,
    snapshot: null,
  });

  const loadActiveUsers = useCallback(async (signal: AbortSignal) => {
    const { revision } = pushed.current;
    try {
      const answer = await warnOnFailure(getActiveUsers(signal), ACTIVE_USERS_ERROR, signal);
      return pushed.current.revision === revision ? answer : (pushed.current.snapshot ?? answer);
    } catch (error) {
      setRefused((current) => current || isAuthFailure(error));
      throw error;
    }
  }, []);
  const loadVisitorStats = useCallback(async (signal: AbortSignal) => {
    try {
      return await warnOnFailure(getVisitorStats(signal), VISITOR_STATS_ERROR, signal);
    } catch (error) {
      setRefused((current) => current || isAuthFailure(error));
      throw error;
    }
  }, []);
  const polled = { pollMs: ADMIN_POLL_INTERVAL_MS };
  const activeUsers = useResource(loadActiveUsers, ACTIVE_USERS_ERROR, polled);
  const visitorStats = useResource(loadVisitorStats, VISITOR_STATS_ERROR, polled);
  const { setData: setActiveUsers, setError: setActiveUsersError } = activeUsers;
  const { setData: setVisitorStats } = visitorStats;

  useEffect(() => {
    const socket = createSocket();
    socket.on('connect', () => setLive(true));
    socket.on('disconnect', () => setLive(false));
    socket.on('connect_error', () => setLive(false));
    socket.on('presence:update', (payload: unknown) => {
      const parsed = ActiveUsersResponse.safeParse(payload);
      if (!parsed.success) {
        console.warn('Ignored a malformed presence update', parsed.error);
        return;
      }
      pushed.current = { revision: pushed.current.revision + 1, snapshot: parsed.data };
      setActiveUsers(() => parsed.data);
      setActiveUsersError(null);
    });
    socket.on('game:click', (payload: unknown) => {
      const parsed = GameClickEvent.safeParse(payload);
      if (!parsed.success) {
        console.warn('Ignored a malformed game click', parsed.error);
        return;
      }
      const { gameId, authenticated } = parsed.data;
      // before the first stats answer: that answer will include this click
      setVisitorStats((stats) =>
        stats
          ? {
              ...stats,
              gameStats: {
                ...stats.gameStats,
                [gameId]: addClick(stats.gameStats[gameId], authenticated),
              },
            }
          : stats,
      );
    });
    return () => {
      socket.disconnect();
      setLive(false);
    };
  }, [setActiveUsers, setActiveUsersError, setVisitorStats]);

  const isAccessDenied = !isAdmin || isRefused;
  useEffect(() => {
    if (isAccessDenied) {
      // admin=true: the login page says an admin sign-in is needed, and lets a signed-in
      // non-admin sign in as another account instead of sending them on
      void navigate('/login?admin=true', { replace: true });
    }
  }, [isAccessDenied, navigate]);

  return {
    activeUsers: activeUsers.data ?? null,
    // the page's own words, whatever the server said
    activeUsersError: activeUsers.error === null ? null : ACTIVE_USERS_ERROR,
    visitorStats: visitorStats.data ?? null,
    visitorStatsError: visitorStats.error === null ? null : VISITOR_STATS_ERROR,
    isLive,
  };
}
