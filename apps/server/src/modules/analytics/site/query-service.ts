import { sql, type SQL } from 'drizzle-orm';

import {
  ANALYTICS_DIMENSIONS,
  type AnalyticsBreakdown,
  type AnalyticsBreakdownRow,
  type AnalyticsDimension,
  type AnalyticsGames,
  type AnalyticsOverview,
  type AnalyticsPoint,
  type AnalyticsQuery,
  type AnalyticsRange,
  type AnalyticsRealtime,
  type AnalyticsRollupFailure,
  type AnalyticsTotals,
  FUNNEL_STEPS,
  type FunnelStep,
} from '@portfolio/types/analytics';

import type { Db } from '../../../db/client.js';
import { badRequest } from '../../../lib/errors.js';
import { moduleLogger } from '../../../lib/logger.js';
import { addDays, type Day, DAY_MS, dayOf } from '../days.js';
import { FILTER_COLUMNS, type FilterKey } from './events.js';
import { rowsOf } from '../../../db/rows.js';
import type { EventsRepo } from './events-repo.js';
import { createSegmentStore, type SegmentStore } from './segment-store.js';
import {
  addSegmentGroups,
  type Segment,
  type SegmentFilters,
  type SegmentGroup,
  segmentTotals,
  type SegmentTotals,
} from './segments.js';

const log = moduleLogger('analytics');

/** The longest custom period, in days. */
export const MAX_PERIOD_DAYS = 366;
/** Memory for the segments of views under two or more filters, by default (12 months of
 * 10 M page views take about 160 MB). */
export const SEGMENT_CACHE_BYTES = 256 * 1024 * 1024;
/** Days whose missing segment one maintenance run builds. */
const BACKFILL_DAYS_PER_RUN = 31;
/** Segments scanned between turns of the event loop. */
const SCAN_CHUNK_DAYS = 16;
/** Realtime looks back this far. */
export const REALTIME_WINDOW_MS = 5 * 60_000;
/** Whole days are rolled up at start and this often (container.ts); a failed day is retried. */
export const ROLLUP_INTERVAL_MS = 10 * 60_000;

const daysBetween = (from: Day, to: Day) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const addMonths = (day: Day, months: number): Day => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return dayOf(date.getTime());
};
const monthStart = (day: Day): Day => `${day.slice(0, 7)}-01`;

/** The period a query asks for and the one before it (same length, just before). */
export function resolveRange(
  query: AnalyticsQuery,
  today: Day,
): { range: AnalyticsRange; previousRange: AnalyticsRange } {
  switch (query.period) {
    case 'today':
      return {
        range: { from: today, to: today, granularity: 'hour' },
        previousRange: {
          from: addDays(today, -1),
          to: addDays(today, -1),
          granularity: 'hour',
        },
      };
    case '7d':
    case '30d': {
      const days = query.period === '7d' ? 7 : 30;
      const from = addDays(today, -(days - 1));
      return {
        range: { from, to: today, granularity: 'day' },
        previousRange: { from: addDays(from, -days), to: addDays(from, -1), granularity: 'day' },
      };
    }
    case '12mo': {
      const from = addMonths(monthStart(today), -11);
      return {
        range: { from, to: today, granularity: 'month' },
        previousRange: { from: addMonths(from, -12), to: addDays(from, -1), granularity: 'month' },
      };
    }
    case 'custom': {
      const from = query.from ?? today;
      const to = query.to ?? today;
      const days = daysBetween(from, to);
      if (days > MAX_PERIOD_DAYS) {
        throw badRequest(`to: a custom period is at most ${MAX_PERIOD_DAYS} days`);
      }
      const granularity = days === 1 ? 'hour' : days <= 92 ? 'day' : 'month';
      return {
        range: { from, to, granularity },
        previousRange: { from: addDays(from, -days), to: addDays(from, -1), granularity },
      };
    }
  }
}

/** The start of every bucket of a range, as the series reports it. */
export function bucketsOf(range: AnalyticsRange): string[] {
  const buckets: string[] = [];
  if (range.granularity === 'hour') {
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      for (let hour = 0; hour < 24; hour++) {
        buckets.push(`${day}T${String(hour).padStart(2, '0')}:00:00.000Z`);
      }
    }
  } else if (range.granularity === 'day') {
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      buckets.push(day);
    }
  } else {
    for (let month = monthStart(range.from); month <= range.to; month = addMonths(month, 1)) {
      buckets.push(month);
    }
  }
  return buckets;
}

/** The events column a dimension filters and groups by. */
const COLUMN: Record<AnalyticsDimension, string> = { ...FILTER_COLUMNS, exit: FILTER_COLUMNS.page };
/** The rollups' name of a filter (an exit filter narrows as a page filter does). */
const filterKey = (dimension: AnalyticsDimension): FilterKey =>
  dimension === 'exit' ? 'page' : dimension;

type Filters = Array<[AnalyticsDimension, string]>;

function filtersOf(query: AnalyticsQuery): Filters {
  const filters: Filters = [];
  for (const dimension of ANALYTICS_DIMENSIONS) {
    const value = query[dimension];
    if (value !== undefined) {
      filters.push([dimension, value]);
    }
  }
  return filters;
}

const filterSql = (filters: Filters): SQL =>
  sql.join(
    filters.map(([dimension, value]) => sql` and ${sql.raw(COLUMN[dimension])} = ${value}`),
    sql``,
  );

const segmentFiltersOf = (filters: Filters): SegmentFilters =>
  filters.map(([dimension, value]) => [filterKey(dimension), value] as const);

/** The rollup rows of no filter or of the one filter (segments answer for more). */
function rolledWhere(filters: Filters, dimension: string, from: Day, to: Day): SQL {
  const [filter] = filters;
  const [key, value] = filter ? [filterKey(filter[0]), filter[1]] : ['', ''];
  return sql`filter = ${key} and filter_value = ${value} and dimension = ${dimension}
    and day between ${from}::date and ${to}::date`;
}

/**
 * Distinct visitors of raw events from `from` to `to`, per day (summed over days): within one day
 * (today, the usual raw range) a plain distinct count, three times faster than one over rows.
 */
const distinctVisitors = (from: Day, to: Day): SQL =>
  from === to ? sql`count(distinct visitor)` : sql`count(distinct (day, visitor))`;

const num = (value: unknown) => Number(value ?? 0);

/** An error as the admin reads it: the database's own words, not the statement drizzle ran. */
function describeError(error: unknown): string {
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) {
    innermost = innermost.cause;
  }
  return innermost instanceof Error ? innermost.message : String(innermost);
}
const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : 0);

/** A period's sums, from rollups, raw events or segments alike. */
type TotalsRow = SegmentTotals;

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

/** What the site analytics' queries share: the database, the segments, and the rollup state. */
export interface QueryContext {
  db: Db;
  repo: EventsRepo;
  now: () => number;
  store: SegmentStore;
  /** Players per game whose viewer is open now. */
  playingNow: () => Promise<Map<string, number>>;
  /** The games the games table lists, in the catalogue's order. */
  games: () => ReadonlyArray<{ id: string; title: string }>;
  /** Days up to this one are rolled up: read from rollups (no filter or one) or segments. */
  rolledThrough: Day | null | undefined;
  /** Days whose rollup failed in this process: the error, when, how often. */
  failures: Map<Day, { message: string; failedAt: number; attempts: number }>;
}

/** Per-day totals of rolled days under two or more filters. */
type DayTotals = Array<[Day, SegmentTotals]>;

/** A breakdown value's sums, from rollups, raw events or segments alike. */
type GroupRow = SegmentGroup;

/**
 * The last day of the unbroken run of rolled-up days: a day with events but no rollup (its
 * rollup failed) and every day after it are read from raw events until it is rolled up.
 */
async function readRolledThrough(
  ctx: QueryContext,
  today: Day,
  days?: readonly Day[],
): Promise<Day | null> {
  const partitions = days ?? (await ctx.repo.listPartitionDays());
  const last = await ctx.repo.lastRolledUpDay();
  const [first] = partitions;
  if (first === undefined || last === null) {
    return last;
  }
  const rolled = await ctx.repo.rolledUpDays(first);
  const gap = partitions.find((day) => day < today && !rolled.has(day));
  return gap !== undefined && gap <= last ? addDays(gap, -1) : last;
}

function listRollupFailures(ctx: QueryContext): AnalyticsRollupFailure[] {
  return [...ctx.failures]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, failure]) => ({
      day,
      message: failure.message,
      failedAt: new Date(failure.failedAt).toISOString(),
      attempts: failure.attempts,
      retryAt: new Date(failure.failedAt + ROLLUP_INTERVAL_MS).toISOString(),
    }));
}

async function rolledUpThrough(ctx: QueryContext): Promise<Day | null> {
  if (ctx.rolledThrough === undefined) {
    ctx.rolledThrough = await readRolledThrough(ctx, dayOf(ctx.now()));
  }
  return ctx.rolledThrough;
}

/**
 * Splits a range into the whole days rolled up and the days read from raw events. The rolled
 * days are read from rollups with no filter or one, else from their segments (`segmented`);
 * an hourly series under two filters reads raw events (segments keep no time of day).
 */
async function split(ctx: QueryContext, range: AnalyticsRange, filters: Filters, hourly = false) {
  const segmented = filters.length >= 2;
  const through = segmented && hourly ? null : await rolledUpThrough(ctx);
  if (!through || through < range.from) {
    return { rolled: null, raw: { from: range.from, to: range.to }, segmented };
  }
  if (through >= range.to) {
    return { rolled: { from: range.from, to: range.to }, raw: null, segmented };
  }
  return {
    rolled: { from: range.from, to: through },
    raw: { from: addDays(through, 1), to: range.to },
    segmented,
  };
}

/** Scans the segments of the rolled days, letting other work run every SCAN_CHUNK_DAYS. */
async function eachSegment(
  ctx: QueryContext,
  from: Day,
  to: Day,
  visit: (day: Day, segment: Segment) => void,
) {
  for (const [index, [day, segment]] of (await ctx.store.segments(from, to)).entries()) {
    if (index > 0 && index % SCAN_CHUNK_DAYS === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    visit(day, segment);
  }
}

/** Per-day totals of rolled days under two or more filters: one scan per range and overview. */
function segmentDayTotals(
  ctx: QueryContext,
  from: Day,
  to: Day,
  filters: Filters,
  scans?: Map<string, Promise<DayTotals>>,
): Promise<DayTotals> {
  const key = `${from}/${to}`;
  let scanned = scans?.get(key);
  if (!scanned) {
    const segmentFilters = segmentFiltersOf(filters);
    const days: DayTotals = [];
    scanned = eachSegment(ctx, from, to, (day, segment) => {
      days.push([day, segmentTotals(segment, segmentFilters)]);
    }).then(() => days);
    scans?.set(key, scanned);
  }
  return scanned;
}

async function totals(
  ctx: QueryContext,
  range: AnalyticsRange,
  filters: Filters,
  scans?: Map<string, Promise<DayTotals>>,
): Promise<AnalyticsTotals> {
  const parts = await split(ctx, range, filters);
  const sum: TotalsRow = {
    visitors: 0,
    pageviews: 0,
    visits: 0,
    bounces: 0,
    seconds: 0,
    bots: 0,
  };
  const add = (row: Partial<TotalsRow> | undefined) => {
    for (const key of Object.keys(sum) as Array<keyof TotalsRow>) {
      sum[key] += num(row?.[key]);
    }
  };
  const work: Array<Promise<void>> = [];
  if (parts.rolled && parts.segmented) {
    const { from, to } = parts.rolled;
    work.push(
      segmentDayTotals(ctx, from, to, filters, scans).then((days) => {
        for (const [, dayTotals] of days) {
          add(dayTotals);
        }
      }),
    );
  } else if (parts.rolled) {
    const { from, to } = parts.rolled;
    work.push(
      rowsOf<TotalsRow>(
        ctx.db,
        sql`select sum(visitors)::int as visitors, sum(pageviews)::int as pageviews,
              sum(visits)::int as visits, sum(bounces)::int as bounces,
              sum(seconds)::bigint as seconds, sum(bots)::int as bots
            from analytics_daily where ${rolledWhere(filters, 'total', from, to)}`,
      ).then((rows) => add(rows[0])),
    );
  }
  if (parts.raw) {
    const { from, to } = parts.raw;
    work.push(
      rowsOf<TotalsRow>(
        ctx.db,
        sql`select ${distinctVisitors(from, to)} filter (where kind = 1)::int as visitors,
              (count(*) filter (where kind = 1))::int as pageviews,
              (count(*) filter (where kind = 1 and is_entry))::int as visits,
              (count(*) filter (where kind = 2 and is_bounce))::int as bounces,
              coalesce(sum(seconds) filter (where kind = 2), 0)::bigint as seconds
            from analytics_events
            where day between ${from}::date and ${to}::date and kind in (1, 2)
            ${filterSql(filters)}`,
      ).then((rows) => add(rows[0])),
      rowsOf<{ bots: number }>(
        ctx.db,
        sql`select count(*)::int as bots from analytics_events
            where day between ${from}::date and ${to}::date and kind = 3`,
      ).then((rows) => add(rows[0])),
    );
  }
  await Promise.all(work);
  return {
    visitors: sum.visitors,
    visits: sum.visits,
    pageviews: sum.pageviews,
    bounceRate: ratio(sum.bounces, sum.visits),
    visitSeconds: sum.visits > 0 ? Math.round((sum.seconds / sum.visits) * 10) / 10 : 0,
    bots: sum.bots,
  };
}

async function series(
  ctx: QueryContext,
  range: AnalyticsRange,
  filters: Filters,
  scans?: Map<string, Promise<DayTotals>>,
): Promise<AnalyticsPoint[]> {
  const parts = await split(ctx, range, filters, range.granularity === 'hour');
  const points = new Map(
    bucketsOf(range).map((bucket) => [bucket, { bucket, visitors: 0, pageviews: 0 }]),
  );
  const add = (rows: Array<{ bucket: string; visitors: number; pageviews: number }>) => {
    for (const row of rows) {
      const point = points.get(row.bucket);
      if (point) {
        point.visitors += num(row.visitors);
        point.pageviews += num(row.pageviews);
      }
    }
  };
  const monthly = range.granularity === 'month';
  const work: Array<Promise<void>> = [];
  if (parts.rolled && parts.segmented) {
    const { from, to } = parts.rolled;
    work.push(
      segmentDayTotals(ctx, from, to, filters, scans).then((days) =>
        add(
          days.map(([day, { visitors, pageviews }]) => ({
            bucket: monthly ? monthStart(day) : day,
            visitors,
            pageviews,
          })),
        ),
      ),
    );
  } else if (parts.rolled) {
    const { from, to } = parts.rolled;
    const bucket = monthly ? sql`date_trunc('month', day)::date::text` : sql`day::text`;
    work.push(
      rowsOf<{ bucket: string; visitors: number; pageviews: number }>(
        ctx.db,
        sql`select ${bucket} as bucket, sum(visitors)::int as visitors,
              sum(pageviews)::int as pageviews
            from analytics_daily where ${rolledWhere(filters, 'total', from, to)}
            group by 1`,
      ).then(add),
    );
  }
  if (parts.raw) {
    const { from, to } = parts.raw;
    const hourly = range.granularity === 'hour';
    // the hour as a number per row, the bucket's text per group (formatting every row costs)
    const hour = hourly ? sql`extract(hour from at at time zone 'UTC')::int` : sql`0`;
    const bucket = hourly
      ? sql`to_char(day, 'YYYY-MM-DD') || 'T' || lpad(hour::text, 2, '0') || ':00:00.000Z'`
      : monthly
        ? sql`date_trunc('month', day)::date::text`
        : sql`day::text`;
    // visitors are distinct per day (and per hour within a day), summed over days
    work.push(
      rowsOf<{ bucket: string; visitors: number; pageviews: number }>(
        ctx.db,
        sql`select ${bucket} as bucket, sum(visitors)::int as visitors,
              sum(pageviews)::int as pageviews
            from (
              select day, ${hour} as hour, count(distinct visitor) as visitors,
                count(*) as pageviews
              from analytics_events
              where day between ${from}::date and ${to}::date and kind = 1
              ${filterSql(filters)}
              group by 1, 2
            ) as d group by 1`,
      ).then(add),
    );
  }
  await Promise.all(work);
  return [...points.values()];
}

function rawGroups(
  ctx: QueryContext,
  dimension: AnalyticsDimension,
  from: Day,
  to: Day,
  filters: Filters,
) {
  const where = sql`day between ${from}::date and ${to}::date ${filterSql(filters)}`;
  if (dimension === 'page') {
    return rowsOf<GroupRow>(
      ctx.db,
      sql`select path as value,
            ${distinctVisitors(from, to)} filter (where kind = 1)::int as visitors,
            (count(*) filter (where kind = 1))::int as pageviews,
            coalesce(sum(seconds) filter (where kind = 2), 0)::bigint as seconds,
            (count(*) filter (where kind = 2))::int as timed
          from analytics_events where ${where} and kind in (1, 2) group by path`,
    );
  }
  if (dimension === 'exit') {
    return rowsOf<GroupRow>(
      ctx.db,
      sql`select path as value, ${distinctVisitors(from, to)}::int as visitors,
            count(*)::int as pageviews, 0 as seconds, 0 as timed
          from analytics_events where ${where} and kind = 2 and is_exit group by path`,
    );
  }
  const column = sql.raw(COLUMN[dimension]);
  return rowsOf<GroupRow>(
    ctx.db,
    sql`select ${column} as value, ${distinctVisitors(from, to)}::int as visitors,
          count(*)::int as pageviews, 0 as seconds, 0 as timed
        from analytics_events where ${where} and kind = 1 group by ${column}`,
  );
}

function rolledGroups(ctx: QueryContext, dimension: string, from: Day, to: Day, filters: Filters) {
  return rowsOf<GroupRow>(
    ctx.db,
    sql`select value, sum(visitors)::int as visitors, sum(pageviews)::int as pageviews,
          sum(seconds)::bigint as seconds, sum(timed)::int as timed
        from analytics_daily where ${rolledWhere(filters, dimension, from, to)}
        group by value`,
  );
}

async function segmentGroups(
  ctx: QueryContext,
  dimension: AnalyticsDimension,
  from: Day,
  to: Day,
  filters: Filters,
): Promise<GroupRow[]> {
  const segmentFilters = segmentFiltersOf(filters);
  const merged = new Map<string, GroupRow>();
  await eachSegment(ctx, from, to, (_day, segment) =>
    addSegmentGroups(merged, segment, dimension, segmentFilters),
  );
  return [...merged.values()];
}

async function groups(
  ctx: QueryContext,
  dimension: AnalyticsDimension,
  range: AnalyticsRange,
  filters: Filters,
): Promise<GroupRow[]> {
  const parts = await split(ctx, range, filters);
  const merged = new Map<string, GroupRow>();
  const add = (rows: GroupRow[]) => {
    for (const row of rows) {
      const known = merged.get(row.value) ?? {
        value: row.value,
        visitors: 0,
        pageviews: 0,
        seconds: 0,
        timed: 0,
      };
      known.visitors += num(row.visitors);
      known.pageviews += num(row.pageviews);
      known.seconds += num(row.seconds);
      known.timed += num(row.timed);
      merged.set(row.value, known);
    }
  };
  const rolled = parts.rolled;
  await Promise.all([
    rolled && parts.segmented
      ? segmentGroups(ctx, dimension, rolled.from, rolled.to, filters).then(add)
      : rolled && rolledGroups(ctx, dimension, rolled.from, rolled.to, filters).then(add),
    parts.raw && rawGroups(ctx, dimension, parts.raw.from, parts.raw.to, filters).then(add),
  ]);
  return [...merged.values()].filter((row) => row.pageviews > 0 || row.visitors > 0);
}

/** Game plays and locked clicks per game (kinds 4 and 5). */
async function gameGroups(ctx: QueryContext, kind: 'play' | 'locked', range: AnalyticsRange) {
  const parts = await split(ctx, range, []);
  const merged = new Map<string, { count: number; seconds: number }>();
  const add = (rows: Array<{ value: string; pageviews: number; seconds: number }>) => {
    for (const row of rows) {
      const known = merged.get(row.value) ?? { count: 0, seconds: 0 };
      known.count += num(row.pageviews);
      known.seconds += num(row.seconds);
      merged.set(row.value, known);
    }
  };
  await Promise.all([
    parts.rolled && rolledGroups(ctx, kind, parts.rolled.from, parts.rolled.to, []).then(add),
    parts.raw &&
      rowsOf<{ value: string; pageviews: number; seconds: number }>(
        ctx.db,
        sql`select game as value, count(*)::int as pageviews,
              coalesce(sum(seconds), 0)::bigint as seconds
            from analytics_events
            where day between ${parts.raw.from}::date and ${parts.raw.to}::date
              and kind = ${kind === 'play' ? 4 : 5}
            group by game`,
      ).then(add),
  ]);
  return merged;
}

/** The overview: totals and series of the period and the one before it. */
export async function getOverview(
  ctx: QueryContext,
  query: AnalyticsQuery,
): Promise<AnalyticsOverview> {
  const { range, previousRange } = resolveRange(query, dayOf(ctx.now()));
  const filters = filtersOf(query);
  const scans = new Map<string, Promise<DayTotals>>();
  const [current, previous, currentSeries, previousSeries] = await Promise.all([
    totals(ctx, range, filters, scans),
    totals(ctx, previousRange, filters, scans),
    series(ctx, range, filters, scans),
    series(ctx, previousRange, filters, scans),
  ]);
  return {
    range,
    previousRange,
    totals: current,
    previousTotals: previous,
    series: currentSeries,
    previousSeries,
    rollupFailures: listRollupFailures(ctx),
  };
}

/** One breakdown: the top `limit` values of `dimension` in the period. */
export async function getBreakdown(
  ctx: QueryContext,
  dimension: AnalyticsDimension,
  query: AnalyticsQuery,
  limit: number,
): Promise<AnalyticsBreakdown> {
  const { range } = resolveRange(query, dayOf(ctx.now()));
  const rows = await groups(ctx, dimension, range, filtersOf(query));
  rows.sort(
    (a, b) =>
      b.visitors - a.visitors ||
      b.pageviews - a.pageviews ||
      (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  return {
    dimension,
    rows: rows.slice(0, limit).map((row): AnalyticsBreakdownRow => {
      const answer: AnalyticsBreakdownRow = {
        value: row.value,
        visitors: row.visitors,
        pageviews: row.pageviews,
      };
      if (dimension === 'page') {
        answer.timeSeconds = row.timed > 0 ? Math.round((row.seconds / row.timed) * 10) / 10 : 0;
      }
      return answer;
    }),
  };
}

/** Visitors of the last REALTIME_WINDOW_MS and the pages they are on. */
export async function getRealtime(ctx: QueryContext): Promise<AnalyticsRealtime> {
  const at = ctx.now();
  const since = at - REALTIME_WINDOW_MS;
  const where = sql`day between ${dayOf(since)}::date and ${dayOf(at)}::date
    and at > ${new Date(since).toISOString()}::timestamptz`;
  const [visitors, pages] = await Promise.all([
    rowsOf<{ visitors: number }>(
      ctx.db,
      sql`select count(distinct visitor)::int as visitors from analytics_events
          where ${where} and kind in (1, 2)`,
    ),
    rowsOf<{ path: string; visitors: number }>(
      ctx.db,
      sql`select path, count(*)::int as visitors from (
            select distinct on (visitor) visitor, path, kind from analytics_events
            where ${where} and kind in (1, 2) order by visitor, at desc, kind
          ) as latest
          where kind = 1
          group by path order by 2 desc, 1 limit 50`,
    ),
  ]);
  return {
    visitors: num(visitors[0]?.visitors),
    pages: pages.map((row) => ({ path: row.path, visitors: num(row.visitors) })),
  };
}

/** The games table and the funnel from visit to subscription. */
export async function getGames(ctx: QueryContext, query: AnalyticsQuery): Promise<AnalyticsGames> {
  const { range } = resolveRange(query, dayOf(ctx.now()));
  const { from, to } = range;
  const [clicks, plays, locked, playing, overall, signUps, subscriptions] = await Promise.all([
    rowsOf<{ game_id: string; clicks: number }>(
      ctx.db,
      sql`select game_id, sum(authenticated_clicks + anonymous_clicks)::int as clicks
            from game_clicks_daily where day between ${from}::date and ${to}::date
            group by game_id`,
    ),
    gameGroups(ctx, 'play', range),
    gameGroups(ctx, 'locked', range),
    ctx.playingNow(),
    totals(ctx, range, []),
    rowsOf<{ count: number }>(
      ctx.db,
      sql`select coalesce(sum(new_users), 0)::int as count from daily_stats
            where day between ${from}::date and ${to}::date`,
    ),
    rowsOf<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from users
            where subscription_start_date >= ${from}::date
              and subscription_start_date < ${addDays(to, 1)}::date`,
    ),
  ]);
  const clicksBy = new Map(clicks.map((row) => [row.game_id, num(row.clicks)]));
  const games = ctx.games().map((game) => {
    const play = plays.get(game.id) ?? { count: 0, seconds: 0 };
    return {
      gameId: game.id,
      title: game.title,
      clicks: clicksBy.get(game.id) ?? 0,
      lockedClicks: locked.get(game.id)?.count ?? 0,
      plays: play.count,
      playSeconds: play.seconds,
      averagePlaySeconds: play.count > 0 ? Math.round((play.seconds / play.count) * 10) / 10 : 0,
      playingNow: playing.get(game.id) ?? 0,
    };
  });
  const counts = [
    overall.visits,
    games.reduce((sum, game) => sum + game.clicks, 0),
    num(signUps[0]?.count),
    num(subscriptions[0]?.count),
  ];
  const funnel: FunnelStep[] = FUNNEL_STEPS.map((step, index) => {
    const count = counts[index] ?? 0;
    const before = index === 0 ? count : (counts[index - 1] ?? 0);
    return {
      step,
      count,
      dropOff: index === 0 ? 0 : before > 0 ? Math.max(0, 1 - count / before) : 0,
    };
  });
  return { games, funnel };
}

/**
 * Rolls up every whole day not rolled up yet (and re-reads where rollups end). A day that fails is
 * logged and tried again at the next run; the days after it are rolled up anyway.
 */
export async function rollUpDays(ctx: QueryContext): Promise<number> {
  const today = dayOf(ctx.now());
  const days = await ctx.repo.listPartitionDays();
  const [first] = days;
  const rolledBefore = first === undefined ? new Set<Day>() : await ctx.repo.rolledUpDays(first);
  // every day not rolled up, in order; one that fails does not stop the ones after it
  let rolled = 0;
  for (const day of days) {
    if (rolledBefore.has(day)) {
      // rolled up since it failed here (by another process, or a later run)
      ctx.failures.delete(day);
      continue;
    }
    if (day >= today) {
      continue;
    }
    try {
      await ctx.repo.rollUp(day);
      ctx.failures.delete(day);
      rolled++;
    } catch (error) {
      const failure = {
        message: describeError(error),
        failedAt: ctx.now(),
        attempts: (ctx.failures.get(day)?.attempts ?? 0) + 1,
      };
      ctx.failures.set(day, failure);
      log.error(
        { err: error },
        `rollup of ${day} failed (attempt ${failure.attempts}); retried in ${ROLLUP_INTERVAL_MS / 60_000} minutes, read from raw events until then`,
      );
    }
  }
  // a day with no partition (no events) needs no rollup, but must not stop later ones
  const yesterday = addDays(today, -1);
  const last = await ctx.repo.lastRolledUpDay();
  if (last !== null && last < yesterday && !days.includes(yesterday)) {
    await ctx.repo.rollUp(yesterday);
  }
  ctx.rolledThrough = await readRolledThrough(ctx, today, days);
  // days rolled up before segments existed get theirs, the latest first and a month's worth
  // per run (a view asking for one first builds it then)
  const rolledUp = ctx.rolledThrough;
  if (first !== undefined && rolledUp !== null) {
    const stored = await ctx.repo.segmentStamps(first, rolledUp);
    const unbuilt = days
      .filter((day) => day <= rolledUp && !stored.has(day))
      .reverse()
      .slice(0, BACKFILL_DAYS_PER_RUN);
    for (const day of unbuilt) {
      await ctx.repo.buildSegment(day);
    }
  }
  return rolled;
}

/** Drops partitions older than the retention, and what is known of their days. */
export async function applyRetention(ctx: QueryContext, retentionDays: number): Promise<number> {
  const keepFrom = addDays(dayOf(ctx.now()), -(retentionDays - 1));
  const dropped = await ctx.repo.dropBefore(keepFrom, await ctx.repo.listPartitionDays());
  ctx.rolledThrough = undefined;
  for (const day of ctx.failures.keys()) {
    if (day < keepFrom) {
      ctx.failures.delete(day);
    }
  }
  ctx.store.forgetBefore(keepFrom);
  return dropped;
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
