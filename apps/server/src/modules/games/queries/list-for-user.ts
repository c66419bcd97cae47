import { asc, eq, sql } from 'drizzle-orm';

import { type MyGameRecord } from '@portfolio/types';

import { gameAchievements, gameStats } from '../../../db/schema.js';
import { type GamesContext, titleOrId } from '../context.js';
import { gamesWithOtherProgress } from './other-progress.js';

/**
 * Every game the player has a record of (playtime, a save in any slot, an achievement, a score),
 * the last played first.
 */
export async function listForUser(
  { db, gameTitle }: GamesContext,
  userId: string,
): Promise<MyGameRecord[]> {
  const [stats, achievements, other] = await Promise.all([
    db
      .select({
        gameId: gameStats.gameId,
        playtimeMs: gameStats.playtimeMs,
        lastPlayed: gameStats.lastPlayed,
        hasSave: sql<boolean>`${gameStats.saveUpdatedAt} is not null`,
      })
      .from(gameStats)
      .where(eq(gameStats.userId, userId)),
    db
      .select({
        gameId: gameAchievements.gameId,
        name: gameAchievements.name,
        unlockedAt: gameAchievements.unlockedAt,
      })
      .from(gameAchievements)
      .where(eq(gameAchievements.userId, userId))
      .orderBy(asc(gameAchievements.unlockedAt), asc(gameAchievements.name)),
    gamesWithOtherProgress(db, userId),
  ]);
  const records = new Map<string, MyGameRecord>();
  const recordOf = (gameId: string): MyGameRecord => {
    let record = records.get(gameId);
    if (!record) {
      record = {
        gameId,
        title: titleOrId(gameTitle, gameId),
        playtimeSeconds: 0,
        lastPlayed: null,
        achievements: [],
        hasSave: false,
      };
      records.set(gameId, record);
    }
    return record;
  };
  for (const stat of stats) {
    const record = recordOf(stat.gameId);
    record.playtimeSeconds = Math.floor(stat.playtimeMs / 1000);
    record.lastPlayed = stat.lastPlayed?.toISOString() ?? null;
    record.hasSave = Boolean(stat.hasSave);
  }
  for (const gameId of other.withSlotSaves) {
    recordOf(gameId).hasSave = true;
  }
  for (const gameId of other.withScores) {
    recordOf(gameId);
  }
  for (const achievement of achievements) {
    recordOf(achievement.gameId).achievements.push({
      name: achievement.name,
      unlockedAt: achievement.unlockedAt.toISOString(),
    });
  }
  return [...records.values()].sort(
    (a, b) =>
      (b.lastPlayed ?? '').localeCompare(a.lastPlayed ?? '') || a.gameId.localeCompare(b.gameId),
  );
}
