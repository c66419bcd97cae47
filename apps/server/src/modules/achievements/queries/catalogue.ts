import { and, eq } from 'drizzle-orm';

import {
  type CatalogueAchievement,
  type GameAchievementsResponse,
  HIDDEN_ACHIEVEMENT_NAME,
} from '@portfolio/types/achievements';

import { gameAchievements } from '../../../db/schema.js';
import { type AchievementContext, achievementIconUrl, counts, definitions } from '../context.js';

/** The catalogue as a player (or a guest, without `userId`) sees it. */
export async function catalogue(
  ctx: AchievementContext,
  gameId: string,
  userId?: string,
): Promise<GameAchievementsResponse> {
  const { db } = ctx;
  const [rows, { byName, players }, mine] = await Promise.all([
    definitions(ctx, gameId),
    counts(ctx, gameId),
    userId
      ? db
          .select({ name: gameAchievements.name, unlockedAt: gameAchievements.unlockedAt })
          .from(gameAchievements)
          .where(and(eq(gameAchievements.gameId, gameId), eq(gameAchievements.userId, userId)))
      : Promise.resolve([]),
  ]);
  const unlocked = new Map(mine.map((row) => [row.name, row.unlockedAt.toISOString()]));
  const achievements: CatalogueAchievement[] = rows.map((row) => {
    const unlockedAt = unlocked.get(row.key) ?? null;
    const share = players === 0 ? 0 : Math.min(1, (byName.get(row.key) ?? 0) / players);
    if (row.hidden && unlockedAt === null) {
      return {
        key: null,
        name: HIDDEN_ACHIEVEMENT_NAME,
        description: '',
        points: row.points,
        hidden: true,
        iconUrl: null,
        share,
        unlockedAt: null,
      };
    }
    return {
      key: row.key,
      name: row.name,
      description: row.description,
      points: row.points,
      hidden: row.hidden,
      iconUrl: achievementIconUrl(gameId, row),
      share,
      unlockedAt,
    };
  });
  return { achievements, players };
}
