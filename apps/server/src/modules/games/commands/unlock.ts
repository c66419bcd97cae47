import { and, eq, sql } from 'drizzle-orm';

import { ACHIEVEMENTS_PER_GAME_MAX } from '@portfolio/types';

import { gameAchievements } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type GamesContext } from '../context.js';

/** Unlocks once: `created` only the first time; the first unlock time is kept. */
export async function unlockAchievement(
  { db, now }: GamesContext,
  userId: string,
  gameId: string,
  name: string,
): Promise<{ created: boolean; name: string; unlockedAt: string }> {
  const inserted = await db
    .insert(gameAchievements)
    .select(
      db
        .select({
          userId: sql<string>`${userId}::uuid`.as('user_id'),
          gameId: sql<string>`${gameId}`.as('game_id'),
          name: sql<string>`${name}`.as('name'),
          unlockedAt: sql<Date>`${now().toISOString()}::timestamptz`.as('unlocked_at'),
        })
        .from(sql`(select 1) as one`)
        .where(
          sql`(select count(*) from ${gameAchievements} where ${gameAchievements.userId} = ${userId}::uuid and ${gameAchievements.gameId} = ${gameId}) < ${ACHIEVEMENTS_PER_GAME_MAX}`,
        ),
    )
    .onConflictDoNothing()
    .returning({ unlockedAt: gameAchievements.unlockedAt });
  if (inserted[0]) {
    return { created: true, name, unlockedAt: inserted[0].unlockedAt.toISOString() };
  }
  const [existing] = await db
    .select({ unlockedAt: gameAchievements.unlockedAt })
    .from(gameAchievements)
    .where(
      and(
        eq(gameAchievements.userId, userId),
        eq(gameAchievements.gameId, gameId),
        eq(gameAchievements.name, name),
      ),
    );
  if (!existing) {
    throw new HttpError(
      'CONFLICT',
      `A player may unlock at most ${ACHIEVEMENTS_PER_GAME_MAX} achievements in one game`,
    );
  }
  return { created: false, name, unlockedAt: existing.unlockedAt.toISOString() };
}
