import { sql } from 'drizzle-orm';

import { GAME_SAVE_MAX_BYTES, type GameSaveResponse } from '@portfolio/types';

import { gameSaveSlots, gameStats } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { progressTime } from '../../../lib/progress-time.js';
import { type GamesContext } from '../context.js';

/**
 * Keeps the game's data in a slot (any JSON up to GAME_SAVE_MAX_BYTES, else 413), saved now or,
 * for a guest's save kept in the account, when the guest saved it.
 */
export async function writeSave(
  { db, now }: GamesContext,
  userId: string,
  gameId: string,
  data: unknown,
  slot = 0,
  updatedAt?: string,
): Promise<GameSaveResponse> {
  const json = JSON.stringify(data);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > GAME_SAVE_MAX_BYTES) {
    throw new HttpError(
      'PAYLOAD_TOO_LARGE',
      `The save is ${Math.ceil(bytes / 1024)} KB; a game may save at most ${GAME_SAVE_MAX_BYTES / 1024} KB`,
    );
  }
  const at = progressTime(updatedAt, now());
  if (slot !== 0) {
    await db
      .insert(gameSaveSlots)
      .values({ userId, gameId, slot, data: sql`${json}::jsonb`, updatedAt: at })
      .onConflictDoUpdate({
        target: [gameSaveSlots.userId, gameSaveSlots.gameId, gameSaveSlots.slot],
        set: { data: sql`${json}::jsonb`, updatedAt: at },
      });
    return { data: data as GameSaveResponse['data'], updatedAt: at.toISOString() };
  }
  await db
    .insert(gameStats)
    .values({ userId, gameId, saveData: sql`${json}::jsonb`, saveUpdatedAt: at })
    .onConflictDoUpdate({
      target: [gameStats.userId, gameStats.gameId],
      set: { saveData: sql`${json}::jsonb`, saveUpdatedAt: at },
    });
  return { data: data as GameSaveResponse['data'], updatedAt: at.toISOString() };
}
