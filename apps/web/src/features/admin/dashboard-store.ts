import {
  ActiveUsersResponse,
  GameClickEvent,
  type GameClickStats,
  type VisitorStatsResponse,
} from '@portfolio/types';
import { create } from 'zustand';

import { isHttpError } from '../../lib/http';
import { getActiveUsers, getCurrentUser, getVisitorStats } from './dashboard-api';

export const ACTIVE_USERS_ERROR = 'Failed to fetch active users';
export const VISITOR_STATS_ERROR = 'Failed to fetch visitor stats';

interface DashboardState {
  activeUsers: ActiveUsersResponse | null;
  visitorStats: VisitorStatsResponse | null;
  activeUsersError: string | null;
  visitorStatsError: string | null;
  /** True once the server says the current session is not an admin's. */
  isAccessDenied: boolean;
  /** True while the Socket.IO connection is up and pushing live updates. */
  isLive: boolean;
  /** Checks the current user; anyone but an admin sets isAccessDenied. */
  verifyAdmin: (signal?: AbortSignal) => Promise<void>;
  loadActiveUsers: (signal?: AbortSignal) => Promise<void>;
  loadVisitorStats: (signal?: AbortSignal) => Promise<void>;
  /** Loads both calls; the last good data stays on screen when one fails. */
  refresh: (signal?: AbortSignal) => Promise<void>;
  /** Takes a pushed presence snapshot; payloads that fail the schema are dropped. */
  applyPresenceUpdate: (payload: unknown) => void;
  /** Counts a pushed game click locally so the table moves before the next poll. */
  applyGameClick: (payload: unknown) => void;
  setLive: (isLive: boolean) => void;
}

const initialState = {
  activeUsers: null,
  visitorStats: null,
  activeUsersError: null,
  visitorStatsError: null,
  isAccessDenied: false,
  isLive: false,
} satisfies Partial<DashboardState>;

/**
 * Bumped by every pushed presence snapshot, so a poll answer that was already in flight cannot
 * overwrite the newer pushed data.
 */
let presenceRevision = 0;

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

export const useDashboardStore = create<DashboardState>()((set, get) => ({
  ...initialState,

  verifyAdmin: async (signal) => {
    try {
      const user = await getCurrentUser(signal);
      // a guest (the session ended) or a user who is no longer an admin
      if (user?.role !== 'admin') {
        set({ isAccessDenied: true });
      }
    } catch (error) {
      if (isAuthFailure(error)) {
        set({ isAccessDenied: true });
        return;
      }
      // A network hiccup is not proof of lost rights; the data calls will show their errors.
      if (!signal?.aborted) {
        console.warn('Could not check the current user', error);
      }
    }
  },

  loadActiveUsers: async (signal) => {
    const revision = presenceRevision;
    try {
      const activeUsers = await getActiveUsers(signal);
      if (revision === presenceRevision) {
        set({ activeUsers, activeUsersError: null });
      }
    } catch (error) {
      if (signal?.aborted) {
        return;
      }
      console.warn(ACTIVE_USERS_ERROR, error);
      set({
        activeUsersError: ACTIVE_USERS_ERROR,
        isAccessDenied: get().isAccessDenied || isAuthFailure(error),
      });
    }
  },

  loadVisitorStats: async (signal) => {
    try {
      const visitorStats = await getVisitorStats(signal);
      set({ visitorStats, visitorStatsError: null });
    } catch (error) {
      if (signal?.aborted) {
        return;
      }
      console.warn(VISITOR_STATS_ERROR, error);
      set({
        visitorStatsError: VISITOR_STATS_ERROR,
        isAccessDenied: get().isAccessDenied || isAuthFailure(error),
      });
    }
  },

  refresh: async (signal) => {
    const { loadActiveUsers, loadVisitorStats } = get();
    await Promise.all([loadActiveUsers(signal), loadVisitorStats(signal)]);
  },

  applyPresenceUpdate: (payload) => {
    const parsed = ActiveUsersResponse.safeParse(payload);
    if (!parsed.success) {
      console.warn('Ignored a malformed presence update', parsed.error);
      return;
    }
    presenceRevision += 1;
    set({ activeUsers: parsed.data, activeUsersError: null });
  },

  applyGameClick: (payload) => {
    const parsed = GameClickEvent.safeParse(payload);
    if (!parsed.success) {
      console.warn('Ignored a malformed game click', parsed.error);
      return;
    }
    const { visitorStats } = get();
    if (!visitorStats) {
      // The first stats answer will include this click.
      return;
    }
    const { gameId, authenticated } = parsed.data;
    set({
      visitorStats: {
        ...visitorStats,
        gameStats: {
          ...visitorStats.gameStats,
          [gameId]: addClick(visitorStats.gameStats[gameId], authenticated),
        },
      },
    });
  },

  setLive: (isLive) => set({ isLive }),
}));

/** Forgets everything, as on a fresh visit to the dashboard. */
export function resetDashboardStore(): void {
  presenceRevision = 0;
  useDashboardStore.setState(initialState);
}
