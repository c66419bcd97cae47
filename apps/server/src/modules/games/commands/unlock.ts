import { and, eq, gt, sql } from 'drizzle-orm';

import { ACHIEVEMENTS_PER_GAME_MAX } from '@portfolio/types';

import { gameAchievements } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { progressTime } from '../../../lib/progress-time.js';
import { type GamesContext } from '../context.js';

/**
 * Unlocks once: `created` only the first time; the first unlock time is kept. A guest's unlock
 * kept in the account names when it happened: that time, and it replaces a later one the
 * account already had (the guest's was the first).
 */
export async function unlockAchievement(
  { db, now }: GamesContext,
  userId: string,
  gameId: string,
  name: string,
  unlockedAt?: string,
): Promise<{ created: boolean; name: string; unlockedAt: string }> {
  const at = progressTime(unlockedAt, now());
  const inserted = await db
    .insert(gameAchievements)
    .select(
      db
        .select({
          userId: sql<string>`${userId}::uuid`.as('user_id'),
          gameId: sql<string>`${gameId}`.as('game_id'),
          name: sql<string>`${name}`.as('name'),
          unlockedAt: sql<Date>`${at.toISOString()}::timestamptz`.as('unlocked_at'),
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
  const theUnlock = and(
    eq(gameAchievements.userId, userId),
    eq(gameAchievements.gameId, gameId),
    eq(gameAchievements.name, name),
  );
  if (unlockedAt !== undefined) {
    const [earlier] = await db
      .update(gameAchievements)
      .set({ unlockedAt: at })
      .where(and(theUnlock, gt(gameAchievements.unlockedAt, at)))
      .returning({ unlockedAt: gameAchievements.unlockedAt });
    if (earlier) {
      return { created: false, name, unlockedAt: earlier.unlockedAt.toISOString() };
    }
  }
  const [existing] = await db
    .select({ unlockedAt: gameAchievements.unlockedAt })
    .from(gameAchievements)
    .where(theUnlock);
  if (!existing) {
    throw new HttpError(
      'CONFLICT',
      `A player may unlock at most ${ACHIEVEMENTS_PER_GAME_MAX} achievements in one game`,
    );
  }
  return { created: false, name, unlockedAt: existing.unlockedAt.toISOString() };
}
