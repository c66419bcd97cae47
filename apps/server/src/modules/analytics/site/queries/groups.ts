import { sql } from 'drizzle-orm';

import type { AnalyticsDimension, AnalyticsRange } from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import type { Day } from '../../days.js';
import { addSegmentGroups } from '../segments.js';
import { eachSegment, type GroupRow, num, type QueryContext, split } from './context.js';
import {
  COLUMN,
  distinctVisitors,
  type Filters,
  filterSql,
  rolledWhere,
  segmentFiltersOf,
} from './filters.js';

/*
 * A period's sums per value of a dimension, from raw events, rollups or segments alike; the
 * breakdowns and the games table read them.
 */

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

export function rolledGroups(
  ctx: QueryContext,
  dimension: string,
  from: Day,
  to: Day,
  filters: Filters,
) {
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

export async function groups(
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
