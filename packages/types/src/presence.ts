import { z } from 'zod';

import { Role } from './auth.js';
import { VISITOR_ID_PATTERN } from './client.js';

/**
 * A page path as the browser reports it: starts with '/', printable characters only. \p{C} is
 * control (Cc), format (Cf: the bidirectional overrides and isolates, zero-width characters),
 * lone surrogate (Cs), private use and unassigned; \p{Z} is every space and line separator. The
 * admin's list shows the path as text, so nothing in it may reorder or hide what is shown.
 */
export const CurrentPage = z
  .string()
  .max(512, 'is too long')
  .regex(/^\/[^\p{C}\p{Z}\s]*$/u, 'must be a path starting with /');

/** Guests send a random visitor id they keep in localStorage. */
export const AnonymousVisitorId = z
  .string()
  .regex(VISITOR_ID_PATTERN, 'must be 16 to 64 URL-safe characters');

/**
 * A signed-in tab's heartbeat. The browser's visitor id, when sent, lets the server drop the
 * guest entry this browser had before signing in, so one person is not counted twice.
 */
export const HeartbeatRequest = z.object({
  currentPage: CurrentPage,
  visitorId: AnonymousVisitorId.optional(),
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

export const AnonymousHeartbeatRequest = z.object({
  currentPage: CurrentPage,
  visitorId: AnonymousVisitorId.optional(),
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
