import type { LeaderboardPeriod, PlayerScore } from '@portfolio/types/leaderboards';

import { bucketOf, findBoardRow, type LeaderboardContext } from '../context.js';
import { readTop } from '../ranking.js';

/**
 * The top of a period as stored now, never from the cache, with the player count when asked
 * (the benchmark's measure).
 */
export async function readTopUncached(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  period: LeaderboardPeriod,
  limit: number,
  withTotal: boolean,
): Promise<{ entries: PlayerScore[]; total: number }> {
  const at = bucketOf(await findBoardRow(ctx, gameId, boardKey), period, new Date(ctx.now()));
  const { entries, total } = await readTop(ctx, at, limit, withTotal);
  return { entries, total };
}
