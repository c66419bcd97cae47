import { sql } from 'drizzle-orm';

import type { AnalyticsRealtime } from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import { dayOf } from '../../days.js';
import { num, type QueryContext } from './context.js';

/** Realtime looks back this far. */
export const REALTIME_WINDOW_MS = 5 * 60_000;

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
