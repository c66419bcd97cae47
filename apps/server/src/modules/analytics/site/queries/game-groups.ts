import { sql } from 'drizzle-orm';

import type { AnalyticsRange } from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import { num, type QueryContext, split } from './context.js';
import { rolledGroups } from './groups.js';

/** Game plays and locked clicks per game (kinds 4 and 5). */
export async function gameGroups(
  ctx: QueryContext,
  kind: 'play' | 'locked',
  range: AnalyticsRange,
) {
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
