import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';

import { gameStats } from '../../../db/schema.js';
import { type GamesContext, MAX_GAP_MS, type SessionAction } from '../context.js';

/**
 * start, ping and end each add the time since the session's previous call, capped at one
 * ping interval (a tab that vanished adds at most that); end closes the session. A ping
 * without an open session opens one; an end without one only marks the game as played.
 * A player is credited one game at a time: a start or ping closes the player's open session
 * in any other game, which keeps the time up to this call (four games open at once add up
 * to the time that passed, not four times it).
 */
export async function recordSession(
  { db, now }: GamesContext,
  userId: string,
  gameId: string,
  action: SessionAction,
): Promise<void> {
  const at = now();
  const gap = sql`case when ${gameStats.sessionLastAt} is null then 0
    else least(greatest(0, (extract(epoch from (${at.toISOString()}::timestamptz - ${gameStats.sessionLastAt})) * 1000)::bigint), ${MAX_GAP_MS}) end`;
  if (action !== 'end') {
    // its own statement, not a transaction with the upsert below: two games' calls at once
    // would lock each other's rows in opposite orders
    await db
      .update(gameStats)
      .set({ playtimeMs: sql`${gameStats.playtimeMs} + ${gap}`, sessionLastAt: null })
      .where(
        and(
          eq(gameStats.userId, userId),
          ne(gameStats.gameId, gameId),
          isNotNull(gameStats.sessionLastAt),
        ),
      );
  }
  await db
    .insert(gameStats)
    .values({
      userId,
      gameId,
      playtimeMs: 0,
      lastPlayed: at,
      sessionLastAt: action === 'end' ? null : at,
    })
    .onConflictDoUpdate({
      target: [gameStats.userId, gameStats.gameId],
      set: {
        playtimeMs: sql`${gameStats.playtimeMs} + ${gap}`,
        lastPlayed: at,
        sessionLastAt: action === 'end' ? null : at,
      },
    });
}
