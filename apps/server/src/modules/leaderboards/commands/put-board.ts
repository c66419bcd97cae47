import { and, eq, sql } from 'drizzle-orm';

import {
  type Leaderboard,
  LEADERBOARDS_PER_GAME_MAX,
  type PutLeaderboardRequest,
} from '@portfolio/types/leaderboards';

import { gameLeaderboards, gameScores } from '../../../db/schema.js';
import { conflict, gameNotFound, notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import { dropCached, type LeaderboardContext, toBoard } from '../context.js';

/** Defines a board or changes one (its scores stay: a changed range applies to new ones). */
export async function putBoard(
  ctx: LeaderboardContext,
  gameId: string,
  board: string,
  input: PutLeaderboardRequest,
  actor: Actor,
): Promise<{ created: boolean; leaderboard: Leaderboard }> {
  const values = {
    name: input.name ?? board,
    order: input.order,
    format: input.format,
    suffix: input.format === 'suffix' ? (input.suffix ?? '') : '',
    min: input.min ?? null,
    max: input.max ?? null,
  };
  const result = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(gameLeaderboards)
      .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
      .for('update');
    if (!existing) {
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(gameLeaderboards)
        .where(eq(gameLeaderboards.gameId, gameId));
      if (Number(count) >= LEADERBOARDS_PER_GAME_MAX) {
        throw conflict(`A game may have at most ${LEADERBOARDS_PER_GAME_MAX} leaderboards`);
      }
      const [row] = await tx
        .insert(gameLeaderboards)
        .values({ gameId, board, ...values })
        .returning();
      if (!row) {
        throw gameNotFound(gameId);
      }
      await recordGameAudit(tx, {
        action: 'leaderboard-save',
        actor,
        gameId,
        detail: `Leaderboard '${values.name}' (${board}) added`,
      });
      return { created: true, leaderboard: toBoard(row) };
    }
    if (existing.order !== values.order) {
      // every stored rank key would be upside down (the bins are counted again, by trigger)
      await tx
        .update(gameScores)
        .set({ rankKey: sql`-${gameScores.rankKey}` })
        .where(and(eq(gameScores.gameId, gameId), eq(gameScores.board, board)));
    }
    const [row] = await tx
      .update(gameLeaderboards)
      .set(values)
      .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
      .returning();
    if (!row) {
      throw notFound(`No leaderboard '${board}' in this game`);
    }
    await recordGameAudit(tx, {
      action: 'leaderboard-save',
      actor,
      gameId,
      detail: `Leaderboard '${values.name}' (${board}) changed`,
    });
    return {
      created: false,
      leaderboard: toBoard(row),
      turned: existing.order !== values.order ? existing.createdAt.getTime() : undefined,
    };
  });
  dropCached(ctx, gameId, board);
  if ('turned' in result && result.turned !== undefined) {
    // the sets of the old order: a turn back must not find them
    await ctx.sets?.clear({ gameId, board, madeAt: result.turned });
  }
  return { created: result.created, leaderboard: result.leaderboard };
}
