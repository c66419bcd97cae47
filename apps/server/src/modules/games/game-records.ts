import { and, asc, eq } from 'drizzle-orm';

import type { GameStat } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { gameAchievementDefs, gameAchievements, gameStats } from '../../db/schema.js';
import { achievementIconUrl } from '../achievements/index.js';
import type { GameRecordsReader } from '../users/index.js';
import { gamesWithOtherProgress } from './queries/other-progress.js';
import { type GameTitleOf, titleOrId } from './service.js';

/**
 * The one place the profile and the admin's user detail read game records from: the game SDK's
 * tables (game_stats: playtime, last played, save; game_achievements; which games hold save
 * slots or scores). Every game the player holds progress in is listed, also one without
 * game_stats (progress kept from playing as a guest has no play session): no playtime, never
 * played in a session, no slot-0 save.
 */
export function createGameRecordsReader(db: Db, gameTitle?: GameTitleOf): GameRecordsReader {
  const titleOf = (gameId: string) => titleOrId(gameTitle, gameId);
  return async (userId) => {
    const [stats, achievements, other] = await Promise.all([
      db
        .select()
        .from(gameStats)
        .where(eq(gameStats.userId, userId))
        .orderBy(asc(gameStats.gameId)),
      // with the game's catalogue entry, when it defines the name (its title, icon, points)
      db
        .select({ unlock: gameAchievements, def: gameAchievementDefs })
        .from(gameAchievements)
        .leftJoin(
          gameAchievementDefs,
          and(
            eq(gameAchievementDefs.gameId, gameAchievements.gameId),
            eq(gameAchievementDefs.key, gameAchievements.name),
          ),
        )
        .where(eq(gameAchievements.userId, userId))
        .orderBy(asc(gameAchievements.unlockedAt), asc(gameAchievements.name)),
      gamesWithOtherProgress(db, userId),
    ]);
    const games: GameStat[] = stats.map((row) => ({
      game_id: row.gameId,
      game_name: titleOf(row.gameId),
      playtime: Math.floor(row.playtimeMs / 1000),
      last_played: row.lastPlayed?.toISOString() ?? null,
      save_data: row.saveData ?? null,
    }));
    const listed = new Set(games.map((game) => game.game_id));
    const unlisted = new Set(
      [
        ...achievements.map(({ unlock }) => unlock.gameId),
        ...other.withSlotSaves,
        ...other.withScores,
      ].filter((gameId) => !listed.has(gameId)),
    );
    for (const gameId of [...unlisted].sort()) {
      games.push({
        game_id: gameId,
        game_name: titleOf(gameId),
        playtime: 0,
        last_played: null,
        save_data: null,
      });
    }
    return {
      games,
      achievements: achievements.map(({ unlock, def }) => ({
        achievement_name: def?.name ?? unlock.name,
        game_id: unlock.gameId,
        game_name: titleOf(unlock.gameId),
        unlocked_at: unlock.unlockedAt.toISOString(),
        ...(def
          ? {
              points: def.points,
              icon_url: achievementIconUrl(def.gameId, def),
              description: def.description,
            }
          : {}),
      })),
    };
  };
}
