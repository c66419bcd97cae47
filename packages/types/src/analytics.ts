import { z } from 'zod';

import { AnonymousVisitorId, CurrentPage, PageLoadId, VisitInfo } from './presence.js';

/*
 * Site analytics: the admin's period view, breakdowns, realtime, games and funnel.
 * Imported as '@portfolio/types/analytics' (kept out of the home page's entry).
 *
 * Every query endpoint takes the same query string, which is also the admin page's URL:
 *   period=today|7d|30d|12mo|custom   (default 30d)
 *   from=YYYY-MM-DD&to=YYYY-MM-DD      (custom only; inclusive, UTC days, at most 366 days)
 *   <dimension>=<value>                (zero or more filters, one per dimension, e.g.
 *                                       country=DE&page=/games: Plausible's model, ANDed)
 *
 *   GET /api/analytics/overview                 AnalyticsOverview
 *   GET /api/analytics/breakdown/:dimension     AnalyticsBreakdown (limit=1..1000, default 10)
 *   GET /api/analytics/realtime                 AnalyticsRealtime (no query)
 *   GET /api/analytics/games                    AnalyticsGames
 *   format=csv on breakdown and games           text/csv, Content-Disposition: attachment
 */

export const ANALYTICS_PERIODS = ['today', '7d', '30d', '12mo', 'custom'] as const;
export const AnalyticsPeriod = z.enum(ANALYTICS_PERIODS);
export type AnalyticsPeriod = z.infer<typeof AnalyticsPeriod>;

/** What a breakdown groups by and a filter narrows by. */
export const ANALYTICS_DIMENSIONS = [
  'page',
  'entry',
  'exit',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
] as const;
export const AnalyticsDimension = z.enum(ANALYTICS_DIMENSIONS);
export type AnalyticsDimension = z.infer<typeof AnalyticsDimension>;

const IsoDay = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });
const FilterValue = z.string().min(1).max(512, 'is too long');

/** The query string of every analytics endpoint (and of the admin page's URL). */
export const AnalyticsQuery = z
  .object({
    period: AnalyticsPeriod.default('30d'),
    from: IsoDay.optional(),
    to: IsoDay.optional(),
    ...(Object.fromEntries(
      ANALYTICS_DIMENSIONS.map((dimension) => [dimension, FilterValue.optional()]),
    ) as Record<AnalyticsDimension, z.ZodOptional<typeof FilterValue>>),
  })
  .superRefine((query, ctx) => {
    if (query.period !== 'custom') {
      return;
    }
    if (!query.from || !query.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'custom periods need from and to' });
    } else if (query.from > query.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** The days a period covers (UTC, inclusive) and the size of the chart's buckets. */
export const AnalyticsRange = z.object({
  from: IsoDay,
  to: IsoDay,
  granularity: z.enum(['hour', 'day', 'month']),
});
export type AnalyticsRange = z.infer<typeof AnalyticsRange>;

export const AnalyticsTotals = z.object({
  /** Distinct visitors (daily-rotating hash: a visitor on two days counts on each). */
  visitors: z.number().int().nonnegative(),
  /** Visits (sessions): page views of one visitor with gaps under 30 minutes. */
  visits: z.number().int().nonnegative(),
  pageviews: z.number().int().nonnegative(),
  /** Share of visits with one page view, 0..1. */
  bounceRate: z.number().min(0).max(1),
  /** Mean visit length in seconds. */
  visitSeconds: z.number().nonnegative(),
  /** Page views filtered out as bots in the period (counted nowhere else). */
  bots: z.number().int().nonnegative(),
});
export type AnalyticsTotals = z.infer<typeof AnalyticsTotals>;

export const AnalyticsPoint = z.object({
  /** Start of the bucket: an ISO date (day, month) or date-time (hour). */
  bucket: z.string(),
  visitors: z.number().int().nonnegative(),
  pageviews: z.number().int().nonnegative(),
});
export type AnalyticsPoint = z.infer<typeof AnalyticsPoint>;

/**
 * A day whose rollup failed: it and the days after it are read from raw events (slower,
 * same figures) until a retry succeeds; later days are rolled up all the same.
 */
export const AnalyticsRollupFailure = z.object({
  day: z.iso.date(),
  /** The error, as logged. */
  message: z.string(),
  failedAt: z.iso.datetime(),
  attempts: z.number().int().positive(),
  /** When the next attempt is due (rollups run every 10 minutes). */
  retryAt: z.iso.datetime(),
});
export type AnalyticsRollupFailure = z.infer<typeof AnalyticsRollupFailure>;

/** `GET /api/analytics/overview`: totals and chart of the period and of the one before it. */
export const AnalyticsOverview = z.object({
  range: AnalyticsRange,
  previousRange: AnalyticsRange,
  totals: AnalyticsTotals,
  previousTotals: AnalyticsTotals,
  series: z.array(AnalyticsPoint),
  previousSeries: z.array(AnalyticsPoint),
  /** Days whose rollup failed in the process that answered (absent or empty when none). */
  rollupFailures: z.array(AnalyticsRollupFailure).optional(),
});
export type AnalyticsOverview = z.infer<typeof AnalyticsOverview>;

export const AnalyticsBreakdownRow = z.object({
  /** The dimension's value; '(none)' for no referrer / campaign, 'other' for unknown paths. */
  value: z.string(),
  visitors: z.number().int().nonnegative(),
  pageviews: z.number().int().nonnegative(),
  /** Pages only: mean time on the page in seconds. */
  timeSeconds: z.number().nonnegative().optional(),
});
export type AnalyticsBreakdownRow = z.infer<typeof AnalyticsBreakdownRow>;

/** `GET /api/analytics/breakdown/:dimension`: rows by visitors, most first. */
export const AnalyticsBreakdown = z.object({
  dimension: AnalyticsDimension,
  rows: z.array(AnalyticsBreakdownRow),
});
export type AnalyticsBreakdown = z.infer<typeof AnalyticsBreakdown>;

/** `GET /api/analytics/realtime`: visitors of the last 5 minutes and the pages they are on. */
export const AnalyticsRealtime = z.object({
  visitors: z.number().int().nonnegative(),
  pages: z.array(z.object({ path: z.string(), visitors: z.number().int().nonnegative() })),
});
export type AnalyticsRealtime = z.infer<typeof AnalyticsRealtime>;

export const GameAnalyticsRow = z.object({
  gameId: z.string(),
  title: z.string(),
  /** Clicks that opened the game. */
  clicks: z.number().int().nonnegative(),
  /** Clicks on its locked card ('Login to Play' / 'Subscribe to Play'). */
  lockedClicks: z.number().int().nonnegative(),
  /** Viewer opened and the game reported, or stayed open 10 s. */
  plays: z.number().int().nonnegative(),
  playSeconds: z.number().nonnegative(),
  /** playSeconds / plays. */
  averagePlaySeconds: z.number().nonnegative(),
  playingNow: z.number().int().nonnegative(),
});
export type GameAnalyticsRow = z.infer<typeof GameAnalyticsRow>;

export const FUNNEL_STEPS = ['visit', 'game-click', 'sign-up', 'subscription'] as const;
export const FunnelStep = z.object({
  step: z.enum(FUNNEL_STEPS),
  count: z.number().int().nonnegative(),
  /** Share lost since the step before, 0..1 (0 for the first step). */
  dropOff: z.number().min(0).max(1),
});
export type FunnelStep = z.infer<typeof FunnelStep>;

/** `GET /api/analytics/games`: per game, and the funnel of the period. */
export const AnalyticsGames = z.object({
  games: z.array(GameAnalyticsRow),
  funnel: z.array(FunnelStep),
});
export type AnalyticsGames = z.infer<typeof AnalyticsGames>;

/*
 * Collection (additive to the query contract above): `POST /api/analytics/beacon`, sent with
 * navigator.sendBeacon (JSON, same origin). Page views themselves ride on the heartbeat
 * (`view` and `left` in HeartbeatRequest).
 */
const GameRef = z.string().min(1).max(64, 'is too long');
export const AnalyticsBeacon = z.discriminatedUnion('type', [
  /** The tab is going away (pagehide): time on its page, the visit's exit. */
  VisitInfo.extend({
    type: z.literal('leave'),
    path: CurrentPage,
    seconds: z.number().min(0).max(86_400),
    /** The visit saw one page view only. */
    bounce: z.boolean().optional(),
    /** No other tab of this browser is open: leave Live Activity now. */
    last: z.boolean().optional(),
    visitorId: AnonymousVisitorId.optional(),
    /** The page load going away: a newer page of this visitor that already beat stays. */
    tab: PageLoadId.optional(),
  }),
  /** The game viewer closed after a play (the game reported, or it stayed open 10 s). */
  z.object({
    type: z.literal('play'),
    gameId: GameRef,
    seconds: z.number().min(0).max(86_400),
  }),
  /** A click on a locked card ('Login to Play' / 'Subscribe to Play'). */
  z.object({ type: z.literal('locked'), gameId: GameRef }),
]);
export type AnalyticsBeacon = z.infer<typeof AnalyticsBeacon>;
