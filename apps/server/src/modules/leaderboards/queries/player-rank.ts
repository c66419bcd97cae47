import type { LeaderboardPeriod, PlayerScore } from '@portfolio/types/leaderboards';

import { bucketOf, entryOf, findBoardRow, type LeaderboardContext } from '../context.js';
import { readRank } from '../ranking.js';

/** A player's row and rank in the current bucket of a period, or null. */
export async function playerRank(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  period: LeaderboardPeriod,
  userId: string,
): Promise<PlayerScore | null> {
  const at = bucketOf(await findBoardRow(ctx, gameId, boardKey), period, new Date(ctx.now()));
  const found = await readRank(ctx, at, userId);
  return found ? entryOf(at.board, found.row, found.rank) : null;
}
