import type { AnalyticsOverview, AnalyticsQuery } from '@portfolio/types/analytics';

import { dayOf } from '../../days.js';
import { type DayTotals, type QueryContext } from './context.js';
import { filtersOf } from './filters.js';
import { resolveRange } from './range.js';
import { listRollupFailures } from './rollup-failures.js';
import { series } from './series.js';
import { totals } from './totals.js';

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
