import { and, eq } from 'drizzle-orm';

import { type GameSaveResponse } from '@portfolio/types';

import { gameSaveSlots, gameStats } from '../../../db/schema.js';
import { type GamesContext } from '../context.js';

/** A slot's save: slot 0 (the default) is the save games had before slots. */
export async function loadSave(
  { db }: GamesContext,
  userId: string,
  gameId: string,
  slot = 0,
): Promise<GameSaveResponse> {
  if (slot !== 0) {
    const [row] = await db
      .select({ data: gameSaveSlots.data, updatedAt: gameSaveSlots.updatedAt })
      .from(gameSaveSlots)
      .where(
        and(
          eq(gameSaveSlots.userId, userId),
          eq(gameSaveSlots.gameId, gameId),
          eq(gameSaveSlots.slot, slot),
        ),
      );
    return row
      ? { data: row.data as GameSaveResponse['data'], updatedAt: row.updatedAt.toISOString() }
      : { data: null, updatedAt: null };
  }
  const [row] = await db
    .select({ data: gameStats.saveData, updatedAt: gameStats.saveUpdatedAt })
    .from(gameStats)
    .where(and(eq(gameStats.userId, userId), eq(gameStats.gameId, gameId)));
  if (!row?.updatedAt) {
    return { data: null, updatedAt: null };
  }
  return { data: row.data as GameSaveResponse['data'], updatedAt: row.updatedAt.toISOString() };
}
