import { and, eq } from 'drizzle-orm';

import { gameLeaderboardBans } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import { findBoard, type LeaderboardContext, usernameOf } from '../context.js';

/** Lets a banned player post scores on a board again (their removed scores stay gone). */
export async function unbanPlayer(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  userId: string,
  actor: Actor,
): Promise<void> {
  const board = await findBoard(ctx, gameId, boardKey);
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(gameLeaderboardBans)
      .where(
        and(
          eq(gameLeaderboardBans.gameId, gameId),
          eq(gameLeaderboardBans.board, boardKey),
          eq(gameLeaderboardBans.userId, userId),
        ),
      )
      .returning({ userId: gameLeaderboardBans.userId });
    if (!removed[0]) {
      throw notFound('That player is not banned from this leaderboard');
    }
    const username = (await usernameOf(tx, userId)) ?? userId;
    await recordGameAudit(tx, {
      action: 'player-unban',
      actor,
      gameId,
      detail: `${username} may post scores on '${board.name}' again`,
    });
  });
}
