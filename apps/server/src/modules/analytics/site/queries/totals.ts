import { sql } from 'drizzle-orm';

import type { AnalyticsRange, AnalyticsTotals } from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import {
  type DayTotals,
  num,
  type QueryContext,
  ratio,
  segmentDayTotals,
  split,
  type TotalsRow,
} from './context.js';
import { distinctVisitors, type Filters, filterSql, rolledWhere } from './filters.js';

/** A period's totals (visitors, visits, page views, bounce rate, visit time, bots). */
export async function totals(
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
