import {
  type LeaderboardPeriod,
  periodStartOf,
  type PlayerScore,
} from '@portfolio/types/leaderboards';

import { findBoard, type LeaderboardContext } from '../context.js';
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
  const board = await findBoard(ctx, gameId, boardKey);
  const bucket = periodStartOf(period, new Date(ctx.now()));
  const { entries, total } = await readTop(ctx, board, period, bucket, limit, withTotal);
  return { entries, total };
}
