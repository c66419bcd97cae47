import {
  type LeaderboardPeriod,
  periodStartOf,
  type PlayerScore,
} from '@portfolio/types/leaderboards';

import { entryOf, findBoard, type LeaderboardContext } from '../context.js';
import { readRank } from '../ranking.js';

/** A player's row and rank in the current bucket of a period (one query), or null. */
export async function playerRank(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  period: LeaderboardPeriod,
  userId: string,
): Promise<PlayerScore | null> {
  const board = await findBoard(ctx, gameId, boardKey);
  const found = await readRank(
    ctx,
    board,
    period,
    periodStartOf(period, new Date(ctx.now())),
    userId,
  );
  return found ? entryOf(board, found.row, found.rank) : null;
}
