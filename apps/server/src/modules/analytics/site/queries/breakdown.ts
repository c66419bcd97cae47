import type {
  AnalyticsBreakdown,
  AnalyticsBreakdownRow,
  AnalyticsDimension,
  AnalyticsQuery,
} from '@portfolio/types/analytics';

import { dayOf } from '../../days.js';
import type { QueryContext } from './context.js';
import { filtersOf } from './filters.js';
import { groups } from './groups.js';
import { resolveRange } from './range.js';

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
