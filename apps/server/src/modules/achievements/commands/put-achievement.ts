import { and, eq, sql } from 'drizzle-orm';

import {
  ACHIEVEMENT_DEFS_PER_GAME_MAX,
  type AchievementDef,
  type PutAchievementRequest,
} from '@portfolio/types/achievements';

import { gameAchievementDefs } from '../../../db/schema.js';
import { conflict, gameNotFound } from '../../../lib/errors.js';

import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import { type AchievementContext, counts, toDef } from '../context.js';

/** Defines an achievement or changes one; defining an undefined name adopts it. */
export async function putAchievement(
  ctx: AchievementContext,
  gameId: string,
  key: string,
  input: PutAchievementRequest,
  actor: Actor,
): Promise<{ created: boolean; achievement: AchievementDef }> {
  const result = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(gameAchievementDefs)
      .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
      .for('update');
    if (!existing) {
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(gameAchievementDefs)
        .where(eq(gameAchievementDefs.gameId, gameId));
      if (Number(count) >= ACHIEVEMENT_DEFS_PER_GAME_MAX) {
        throw conflict(`A game may define at most ${ACHIEVEMENT_DEFS_PER_GAME_MAX} achievements`);
      }
    }
    const [row] = existing
      ? await tx
          .update(gameAchievementDefs)
          .set({ ...input, updatedAt: new Date() })
          .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
          .returning()
      : await tx
          .insert(gameAchievementDefs)
          .values({ gameId, key, ...input })
          .returning();
    if (!row) {
      throw gameNotFound(gameId);
    }
    await recordGameAudit(tx, {
      action: 'achievement-save',
      actor,
      gameId,
      detail: existing
        ? `Achievement '${row.name}' changed`
        : `Achievement '${row.name}' (${key}) added, ${row.points} points${row.hidden ? ', hidden' : ''}`,
    });
    return { created: !existing, row };
  });
  const { byName } = await counts(ctx, gameId);
  return {
    created: result.created,
    achievement: toDef(result.row, byName.get(key) ?? 0),
  };
}
