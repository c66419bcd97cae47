import { and, asc, eq } from 'drizzle-orm';

import { type SaveSlotSummary } from '@portfolio/types';

import { gameSaveSlots, gameStats } from '../../../db/schema.js';
import { type GamesContext } from '../context.js';

/** The slots that hold a save, in slot order. */
export async function listSlots(
  { db }: GamesContext,
  userId: string,
  gameId: string,
): Promise<SaveSlotSummary[]> {
  const [first, others] = await Promise.all([
    db
      .select({ updatedAt: gameStats.saveUpdatedAt })
      .from(gameStats)
      .where(and(eq(gameStats.userId, userId), eq(gameStats.gameId, gameId))),
    db
      .select({ slot: gameSaveSlots.slot, updatedAt: gameSaveSlots.updatedAt })
      .from(gameSaveSlots)
      .where(and(eq(gameSaveSlots.userId, userId), eq(gameSaveSlots.gameId, gameId)))
      .orderBy(asc(gameSaveSlots.slot)),
  ]);
  const slots: SaveSlotSummary[] = [];
  if (first[0]?.updatedAt) {
    slots.push({ slot: 0, updatedAt: first[0].updatedAt.toISOString() });
  }
  for (const row of others) {
    slots.push({ slot: row.slot, updatedAt: row.updatedAt.toISOString() });
  }
  return slots;
}
