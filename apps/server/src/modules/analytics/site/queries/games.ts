import { sql } from 'drizzle-orm';

import {
  type AnalyticsGames,
  type AnalyticsQuery,
  FUNNEL_STEPS,
  type FunnelStep,
} from '@portfolio/types/analytics';

import { rowsOf } from '../../../../db/rows.js';
import { addDays, dayOf } from '../../days.js';
import { num, type QueryContext } from './context.js';
import { gameGroups } from './game-groups.js';
import { resolveRange } from './range.js';
import { totals } from './totals.js';

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
