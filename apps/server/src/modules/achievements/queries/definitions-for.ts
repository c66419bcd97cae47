import { and, eq } from 'drizzle-orm';

import { gameAchievementDefs, gameAchievements } from '../../../db/schema.js';
import type { AchievementContext, DefRow } from '../context.js';

/**
 * The definitions of the achievements a player holds, by game and key (the profile and the
 * admin's user page show their names, icons and points).
 */
export async function definitionsFor(
  { db }: AchievementContext,
  userId: string,
): Promise<Map<string, DefRow>> {
  const rows = await db
    .select({ def: gameAchievementDefs })
    .from(gameAchievements)
    .innerJoin(
      gameAchievementDefs,
      and(
        eq(gameAchievementDefs.gameId, gameAchievements.gameId),
        eq(gameAchievementDefs.key, gameAchievements.name),
      ),
    )
    .where(eq(gameAchievements.userId, userId));
  return new Map(rows.map(({ def }) => [`${def.gameId}\u0000${def.key}`, def]));
}
