import { and, eq } from 'drizzle-orm';

import { gameLeaderboards } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import { dropCached, type LeaderboardContext } from '../context.js';

/** Deletes a board with its scores, bins and bans (by cascade), and its Redis sets. */
export async function removeBoard(
  ctx: LeaderboardContext,
  gameId: string,
  board: string,
  actor: Actor,
): Promise<void> {
  const madeAt = await ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(gameLeaderboards)
      .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
      .returning({ name: gameLeaderboards.name, createdAt: gameLeaderboards.createdAt });
    if (!deleted[0]) {
      throw notFound(`No leaderboard '${board}' in this game`);
    }
    await recordGameAudit(tx, {
      action: 'leaderboard-delete',
      actor,
      gameId,
      detail: `Leaderboard '${deleted[0].name}' (${board}) deleted with its scores`,
    });
    return deleted[0].createdAt.getTime();
  });
  dropCached(ctx, gameId, board);
  await ctx.sets?.clear({ gameId, board, madeAt });
}
