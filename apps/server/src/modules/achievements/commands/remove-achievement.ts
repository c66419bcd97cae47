import { and, eq } from 'drizzle-orm';

import { gameAchievementDefs } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import type { AchievementContext } from '../context.js';

/** Deletes a definition (and its icon); players keep their unlocks, shown as undefined. */
export async function removeAchievement(
  { db, storage }: AchievementContext,
  gameId: string,
  key: string,
  actor: Actor,
): Promise<void> {
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(gameAchievementDefs)
      .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
      .returning();
    if (!deleted) {
      throw notFound(`No achievement '${key}' in this game`);
    }
    await recordGameAudit(tx, {
      action: 'achievement-delete',
      actor,
      gameId,
      detail: `Achievement '${deleted.name}' (${key}) deleted; players keep it`,
    });
    return deleted;
  });
  if (row.icon) {
    await storage.delete(`${gameId}/${row.icon}`);
  }
}
