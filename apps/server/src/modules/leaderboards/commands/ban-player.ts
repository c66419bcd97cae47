import { gameLeaderboardBans, gameScores } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import {
  dropCached,
  findBoardRow,
  type LeaderboardContext,
  playerScores,
  setsBoardOf,
  toBoard,
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
  const boardRow = await findBoardRow(ctx, gameId, boardKey);
  const board = toBoard(boardRow);
  const removed = await ctx.db.transaction(async (tx) => {
    const username = await usernameOf(tx, userId);
    if (username === undefined) {
      throw notFound('No such user');
    }
    await tx
      .insert(gameLeaderboardBans)
      .values({ gameId, board: boardKey, userId, bannedBy: actor?.username ?? 'system' })
      .onConflictDoNothing();
    const rows = await tx
      .delete(gameScores)
      .where(playerScores(gameId, boardKey, userId))
      .returning({ period: gameScores.period, bucket: gameScores.bucket });
    await recordGameAudit(tx, {
      action: 'player-ban',
      actor,
      gameId,
      detail: `${username} banned from '${board.name}' (scores removed)`,
    });
    return rows;
  });
  dropCached(ctx, gameId, boardKey);
  await ctx.sets?.forget(setsBoardOf(boardRow), userId, removed);
}
