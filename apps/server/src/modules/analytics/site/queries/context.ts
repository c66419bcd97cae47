import type { AnalyticsRange } from '@portfolio/types/analytics';

import type { Db } from '../../../../db/client.js';
import { addDays, type Day, dayOf } from '../../days.js';
import type { EventsRepo } from '../events-repo.js';
import type { SegmentStore } from '../segment-store.js';
import { type Segment, type SegmentGroup, segmentTotals, type SegmentTotals } from '../segments.js';
import { type Filters, segmentFiltersOf } from './filters.js';

/*
 * What every site analytics query shares: the context (database, segments, rollup state) and
 * the helpers that split a period into rolled-up days (rollups or segments) and raw events.
 */

/** Segments scanned between turns of the event loop. */
const SCAN_CHUNK_DAYS = 16;
/** Whole days are rolled up at start and this often (container.ts); a failed day is retried. */
export const ROLLUP_INTERVAL_MS = 10 * 60_000;

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

/** A period's sums, from rollups, raw events or segments alike. */
export type TotalsRow = SegmentTotals;

/** Per-day totals of rolled days under two or more filters. */
export type DayTotals = Array<[Day, SegmentTotals]>;

/** A breakdown value's sums, from rollups, raw events or segments alike. */
export type GroupRow = SegmentGroup;

export const num = (value: unknown) => Number(value ?? 0);

export const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : 0);

/**
 * The last day of the unbroken run of rolled-up days: a day with events but no rollup (its
 * rollup failed) and every day after it are read from raw events until it is rolled up.
 */
export async function readRolledThrough(
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

export async function rolledUpThrough(ctx: QueryContext): Promise<Day | null> {
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
export async function split(
  ctx: QueryContext,
  range: AnalyticsRange,
  filters: Filters,
  hourly = false,
) {
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
export async function eachSegment(
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
export function segmentDayTotals(
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
