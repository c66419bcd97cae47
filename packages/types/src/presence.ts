import { z } from 'zod';

import { Role } from './auth.js';
import { VISITOR_ID_PATTERN } from './client.js';

/**
 * A page path as the browser reports it: starts with '/', printable characters only. \p{C} is
 * control (Cc), format (Cf: the bidirectional overrides and isolates, zero-width characters),
 * lone surrogate (Cs), private use and unassigned; \p{Z} is every space and line separator. The
 * admin's list shows the path as text, so nothing in it may reorder or hide what is shown.
 */
export const CURRENT_PAGE_PATTERN = /^\/[^\p{C}\p{Z}\s]*$/u;
export const CurrentPage = z
  .string()
  .max(512, 'is too long')
  .regex(CURRENT_PAGE_PATTERN, 'must be a path starting with /');

/** Guests send a random visitor id they keep in localStorage. */
export const AnonymousVisitorId = z
  .string()
  .regex(VISITOR_ID_PATTERN, 'must be 16 to 64 URL-safe characters');

/**
 * A signed-in tab's heartbeat. The browser's visitor id, when sent, lets the server drop the
 * guest entry this browser had before signing in, so one person is not counted twice.
 */
/**
 * Site analytics: the visit a page view belongs to, as the browser keeps it (a visit
 * starts after 30 minutes without activity in this browser). Sent with every page view and leave.
 */
const UtmValue = z.string().max(128, 'is too long');
export const VisitInfo = z.object({
  /** The visit's entry page. */
  landing: CurrentPage.optional(),
  /** The referring site's host name, at landing; absent for direct visits. */
  referrer: z.string().max(253, 'is too long').optional(),
  utm_source: UtmValue.optional(),
  utm_medium: UtmValue.optional(),
  utm_campaign: UtmValue.optional(),
});
export type VisitInfo = z.infer<typeof VisitInfo>;

/** A heartbeat that starts a page view of `currentPage` (a route change or a load) carries this. */
export const PageViewInfo = VisitInfo.extend({
  /** This view starts a visit. */
  entry: z.boolean().optional(),
  /**
   * The address the view counts for when it names more than `currentPage` (pageViewPath): a
   * game open in the viewer (/games?play=<id>), a gallery project (/Gallery?project=<id>).
   */
  path: CurrentPage.optional(),
});
export type PageViewInfo = z.infer<typeof PageViewInfo>;

/**
 * One page load of a tab (random, new with every document): a tab going away names it, so its
 * leave does not remove a visitor whose next page has already beaten (a full navigation).
 */
export const PAGE_LOAD_ID_PATTERN = /^[0-9a-z]{1,16}$/;
export const PageLoadId = z
  .string()
  .regex(PAGE_LOAD_ID_PATTERN, 'must be 1 to 16 letters or digits');

/** Optional analytics fields of both heartbeats (additive: older clients send none). */
const HeartbeatAnalytics = {
  tab: PageLoadId.optional(),
  view: PageViewInfo.optional(),
  /** The page just left and the seconds spent on it (a route change). */
  left: z.object({ path: CurrentPage, seconds: z.number().min(0).max(86_400) }).optional(),
  /** The game open in the viewer, for "playing now". */
  game: z.string().max(64, 'is too long').optional(),
};

export const HeartbeatRequest = z.object({
  currentPage: CurrentPage,
  visitorId: AnonymousVisitorId.optional(),
  ...HeartbeatAnalytics,
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

export const AnonymousHeartbeatRequest = z.object({
  currentPage: CurrentPage,
  visitorId: AnonymousVisitorId.optional(),
  ...HeartbeatAnalytics,
});
export type AnonymousHeartbeatRequest = z.infer<typeof AnonymousHeartbeatRequest>;

export const HeartbeatResponse = z.object({ ok: z.literal(true) });
export type HeartbeatResponse = z.infer<typeof HeartbeatResponse>;

export const ActiveAuthenticatedUser = z.object({
  username: z.string(),
  role: Role,
  current_page: z.string(),
  last_seen: z.string(),
});
export type ActiveAuthenticatedUser = z.infer<typeof ActiveAuthenticatedUser>;

export const ActiveUsersResponse = z.object({
  authenticated: z.array(ActiveAuthenticatedUser),
  anonymous: z.object({
    count: z.number().int().nonnegative(),
    /** page path -> number of guests on it */
    currentPages: z.record(z.string(), z.number().int().nonnegative()),
  }),
  totalActive: z.number().int().nonnegative(),
});
export type ActiveUsersResponse = z.infer<typeof ActiveUsersResponse>;

export const TrackGameClickRequest = z.object({ gameId: z.string().min(1, 'is required').max(64) });
export type TrackGameClickRequest = z.infer<typeof TrackGameClickRequest>;

export const DailyStat = z.object({
  date: z.string(),
  new_users: z.number().int(),
  total_users: z.number().int(),
  peak_concurrent: z.number().int(),
  registered_visitors: z.number().int(),
  anonymous_visitors: z.number().int(),
  daily_total: z.number().int(),
});
export type DailyStat = z.infer<typeof DailyStat>;

export const GameClickStats = z.object({
  totalClicks: z.number().int(),
  authenticatedClicks: z.number().int(),
  anonymousClicks: z.number().int(),
});
export type GameClickStats = z.infer<typeof GameClickStats>;

export const VisitorStatsResponse = z.object({
  summary: z.object({
    averageTotal: z.number(),
    averageAuthenticated: z.number(),
    averageAnonymous: z.number(),
    /**
     * How many days the averages are taken over: the newest days of dailyStats, from the first
     * day with data in the window to today (the Daily Breakdown shows the same days).
     */
    averageDays: z.number().int().nonnegative().optional(),
    newUsers: z.number().int(),
    totalUsers: z.number().int(),
    peakConcurrent: z.number().int(),
  }),
  dailyStats: z.array(DailyStat),
  gameStats: z.record(z.string(), GameClickStats),
});
export type VisitorStatsResponse = z.infer<typeof VisitorStatsResponse>;

export const GameStatusResponse = z.record(z.string(), z.boolean());
export type GameStatusResponse = z.infer<typeof GameStatusResponse>;

export const GameClickEvent = z.object({
  gameId: z.string(),
  authenticated: z.boolean(),
  at: z.string(),
});
export type GameClickEvent = z.infer<typeof GameClickEvent>;

/** Socket.IO events the server sends; only sockets in the `admins` room get the admin ones. */
export interface ServerToClientEvents {
  'presence:update': (payload: ActiveUsersResponse) => void;
  'game:click': (payload: GameClickEvent) => void;
  'game-status:update': (payload: GameStatusResponse) => void;
}

/** The client sends nothing over the socket: heartbeats go over HTTP. */
export type ClientToServerEvents = Record<string, never>;
