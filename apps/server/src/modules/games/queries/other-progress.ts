import { eq } from 'drizzle-orm';

import type { Db } from '../../../db/client.js';
import { gameSaveSlots, gameScores } from '../../../db/schema.js';

/**
 * The games a player holds progress of beside game_stats and the achievements: saves in slots
 * 1…9 and leaderboard scores. Progress kept from playing as a guest may be only these (a guest
 * has no play sessions), and it is the player's all the same: the profile lists those games.
 */
export async function gamesWithOtherProgress(
  db: Db,
  userId: string,
): Promise<{ withSlotSaves: Set<string>; withScores: Set<string> }> {
  const [slots, scores] = await Promise.all([
    db
      .selectDistinct({ gameId: gameSaveSlots.gameId })
      .from(gameSaveSlots)
      .where(eq(gameSaveSlots.userId, userId)),
    db
      .selectDistinct({ gameId: gameScores.gameId })
      .from(gameScores)
      .where(eq(gameScores.userId, userId)),
  ]);
  return {
    withSlotSaves: new Set(slots.map((row) => row.gameId)),
    withScores: new Set(scores.map((row) => row.gameId)),
  };
}
