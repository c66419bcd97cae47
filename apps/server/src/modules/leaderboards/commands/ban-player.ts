import { gameLeaderboardBans, gameScores } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import {
  dropCached,
  findBoard,
  type LeaderboardContext,
  playerScores,
  usernameOf,
} from '../context.js';

/** Bans a player from a board: their scores go, new ones are refused. */
export async function banPlayer(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  userId: string,
  actor: Actor,
): Promise<void> {
  const board = await findBoard(ctx, gameId, boardKey);
  await ctx.db.transaction(async (tx) => {
    const username = await usernameOf(tx, userId);
    if (username === undefined) {
      throw notFound('No such user');
    }
    await tx
      .insert(gameLeaderboardBans)
      .values({ gameId, board: boardKey, userId, bannedBy: actor?.username ?? 'system' })
      .onConflictDoNothing();
    await tx.delete(gameScores).where(playerScores(gameId, boardKey, userId));
    await recordGameAudit(tx, {
      action: 'player-ban',
      actor,
      gameId,
      detail: `${username} banned from '${board.name}' (scores removed)`,
    });
  });
  dropCached(ctx, gameId, boardKey);
}
