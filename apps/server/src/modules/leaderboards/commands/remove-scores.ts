import { gameScores } from '../../../db/schema.js';
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

/** Removes a player's scores from a board (every period). */
export async function removeScores(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  userId: string,
  actor: Actor,
): Promise<void> {
  const boardRow = await findBoardRow(ctx, gameId, boardKey);
  const board = toBoard(boardRow);
  const removed = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .delete(gameScores)
      .where(playerScores(gameId, boardKey, userId))
      .returning({ period: gameScores.period, bucket: gameScores.bucket });
    if (rows.length === 0) {
      throw notFound(`That player has no score on ${board.name}`);
    }
    const username = (await usernameOf(tx, userId)) ?? userId;
    await recordGameAudit(tx, {
      action: 'score-remove',
      actor,
      gameId,
      detail: `Score of ${username} removed from '${board.name}'`,
    });
    return rows;
  });
  dropCached(ctx, gameId, boardKey);
  await ctx.sets?.forget(setsBoardOf(boardRow), userId, removed);
}
