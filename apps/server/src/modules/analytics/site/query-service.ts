import type {
  AnalyticsBreakdown,
  AnalyticsDimension,
  AnalyticsGames,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsRealtime,
  AnalyticsRollupFailure,
} from '@portfolio/types/analytics';

import type { Db } from '../../../db/client.js';
import { applyRetention } from './commands/apply-retention.js';
import { rollUpDays } from './commands/roll-up-days.js';
import type { EventsRepo } from './events-repo.js';
import { getBreakdown } from './queries/breakdown.js';
import type { QueryContext } from './queries/context.js';
import { getGames } from './queries/games.js';
import { getOverview } from './queries/overview.js';
import { getRealtime } from './queries/realtime.js';
import { listRollupFailures } from './queries/rollup-failures.js';
import { createSegmentStore } from './segment-store.js';

/*
 * The site analytics' query service: one file per query (queries/) and per maintenance command
 * (commands/: the daily rollups, the retention) over a QueryContext (queries/context.ts); this
 * factory only assembles them.
 */

export { applyRetention } from './commands/apply-retention.js';
export { rollUpDays } from './commands/roll-up-days.js';
export { getBreakdown } from './queries/breakdown.js';
export { type QueryContext, ROLLUP_INTERVAL_MS } from './queries/context.js';
export { getGames } from './queries/games.js';
export { getOverview } from './queries/overview.js';
export { bucketsOf, MAX_PERIOD_DAYS, resolveRange } from './queries/range.js';
export { getRealtime, REALTIME_WINDOW_MS } from './queries/realtime.js';

/** Memory for the segments of views under two or more filters, by default (12 months of
 * 10 M page views take about 160 MB). */
export const SEGMENT_CACHE_BYTES = 256 * 1024 * 1024;

export interface AnalyticsQueryService {
  overview(query: AnalyticsQuery): Promise<AnalyticsOverview>;
  breakdown(
    dimension: AnalyticsDimension,
    query: AnalyticsQuery,
    limit: number,
  ): Promise<AnalyticsBreakdown>;
  realtime(): Promise<AnalyticsRealtime>;
  games(query: AnalyticsQuery): Promise<AnalyticsGames>;
  /**
   * Rolls up every whole day not rolled up yet (and re-reads where rollups end). A day that
   * fails is logged and tried again at the next run; the days after it are rolled up anyway.
   */
  rollUp(): Promise<number>;
  /** The days whose last rollup attempt in this process failed, oldest first. */
  rollupFailures(): AnalyticsRollupFailure[];
  /** Drops partitions older than the retention. */
  applyRetention(retentionDays: number): Promise<number>;
}

/** The site analytics' queries over one database, as one object (see QueryContext). */
export function createAnalyticsQueryService(deps: {
  db: Db;
  repo: EventsRepo;
  /** Players per game whose viewer is open now. */
  playingNow: () => Promise<Map<string, number>>;
  /** The games the games table lists, in the catalogue's order. */
  games: () => ReadonlyArray<{ id: string; title: string }>;
  now?: () => number;
  /** Memory for segments (SEGMENT_CACHE_BYTES by default). */
  segmentCacheBytes?: number;
}): AnalyticsQueryService {
  const ctx: QueryContext = {
    db: deps.db,
    repo: deps.repo,
    now: deps.now ?? Date.now,
    store: createSegmentStore(deps.repo, deps.segmentCacheBytes ?? SEGMENT_CACHE_BYTES),
    playingNow: deps.playingNow,
    games: deps.games,
    rolledThrough: undefined,
    failures: new Map(),
  };
  return {
    overview: (query) => getOverview(ctx, query),
    breakdown: (dimension, query, limit) => getBreakdown(ctx, dimension, query, limit),
    realtime: () => getRealtime(ctx),
    games: (query) => getGames(ctx, query),
    rollUp: () => rollUpDays(ctx),
    rollupFailures: () => listRollupFailures(ctx),
    applyRetention: (retentionDays) => applyRetention(ctx, retentionDays),
  };
}
