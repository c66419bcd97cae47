import { and, asc, eq } from 'drizzle-orm';

import { gameLeaderboardBans, users } from '../../../db/schema.js';
import type { LeaderboardContext } from '../context.js';

/** The players banned from a board (the admin page). */
export async function listBans({ db }: LeaderboardContext, gameId: string, boardKey: string) {
  const rows = await db
    .select({
      userId: gameLeaderboardBans.userId,
      username: users.username,
      bannedAt: gameLeaderboardBans.bannedAt,
      bannedBy: gameLeaderboardBans.bannedBy,
    })
    .from(gameLeaderboardBans)
    .innerJoin(users, eq(users.id, gameLeaderboardBans.userId))
    .where(and(eq(gameLeaderboardBans.gameId, gameId), eq(gameLeaderboardBans.board, boardKey)))
    .orderBy(asc(gameLeaderboardBans.bannedAt));
  return rows.map((row) => ({ ...row, bannedAt: row.bannedAt.toISOString() }));
}
