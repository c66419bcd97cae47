import { sql } from 'drizzle-orm';

import type { AnalyticsPoint, AnalyticsRange } from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import { type DayTotals, num, type QueryContext, segmentDayTotals, split } from './context.js';
import { type Filters, filterSql, rolledWhere } from './filters.js';
import { bucketsOf, monthStart } from './range.js';

/** A period's visitors and page views per bucket (hour, day or month), every bucket present. */
export async function series(
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
