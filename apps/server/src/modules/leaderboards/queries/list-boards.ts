import { asc, eq } from 'drizzle-orm';

import type { Leaderboard } from '@portfolio/types/leaderboards';

import { gameLeaderboards } from '../../../db/schema.js';
import { type LeaderboardContext, toBoard } from '../context.js';

/** A game's boards, in the order they were made. */
export async function listBoards(
  { db }: LeaderboardContext,
  gameId: string,
): Promise<Leaderboard[]> {
  const rows = await db
    .select()
    .from(gameLeaderboards)
    .where(eq(gameLeaderboards.gameId, gameId))
    .orderBy(asc(gameLeaderboards.createdAt), asc(gameLeaderboards.board));
  return rows.map(toBoard);
}
