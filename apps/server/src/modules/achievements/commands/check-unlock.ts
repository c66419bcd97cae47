import { eq, sql } from 'drizzle-orm';

import { gameAchievementDefs } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import type { AchievementContext } from '../context.js';

/**
 * GameSDK.unlock's rule: a game with a catalogue unlocks only what it defines (404 else); a
 * game without one takes any name, as before catalogues.
 */
export async function checkUnlock(
  { db }: AchievementContext,
  gameId: string,
  key: string,
): Promise<void> {
  const [found] = await db
    .select({
      defines: sql<boolean>`bool_or(${gameAchievementDefs.key} = ${key})`,
      count: sql<number>`count(*)::int`,
    })
    .from(gameAchievementDefs)
    .where(eq(gameAchievementDefs.gameId, gameId));
  if (found && Number(found.count) > 0 && !found.defines) {
    throw new HttpError('UNKNOWN_ACHIEVEMENT', `No achievement '${key}' in this game's catalogue`);
  }
}
