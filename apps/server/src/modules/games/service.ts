import { and, asc, eq, isNotNull, ne, sql } from 'drizzle-orm';

import {
  ACHIEVEMENTS_PER_GAME_MAX,
  findGame,
  GAME_SAVE_MAX_BYTES,
  GAME_SESSION_MAX_GAP_SECONDS,
  type GameSaveResponse,
  type MyGameRecord,
  type SaveSlotSummary,
} from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { gameAchievements, gameSaveSlots, gameStats } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';

export type SessionAction = 'start' | 'ping' | 'end';

/** A game's title in the catalogue (an owner's own game too), if it is there. */
export type GameTitleOf = (gameId: string) => string | undefined;

/** The title players see for a game id: the catalogue's, else the built-in list's, else the id. */
export const titleOrId = (titleOf: GameTitleOf | undefined, gameId: string): string =>
  titleOf?.(gameId) ?? findGame(gameId)?.title ?? gameId;

const MAX_GAP_MS = GAME_SESSION_MAX_GAP_SECONDS * 1000;

/**
 * What the game SDK records for a signed-in player: playtime from play sessions, one save per
 * game, achievements. Every call is one statement (the achievement cap adds one count).
 */
export function createGamesService(deps: { db: Db; now?: () => Date; gameTitle?: GameTitleOf }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * start, ping and end each add the time since the session's previous call, capped at one
     * ping interval (a tab that vanished adds at most that); end closes the session. A ping
     * without an open session opens one; an end without one only marks the game as played.
     * A player is credited one game at a time: a start or ping closes the player's open session
     * in any other game, which keeps the time up to this call (four games open at once add up
     * to the time that passed, not four times it).
     */
    async recordSession(userId: string, gameId: string, action: SessionAction): Promise<void> {
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
    },

    /** A slot's save: slot 0 (the default) is the save games had before slots. */
    async loadSave(userId: string, gameId: string, slot = 0): Promise<GameSaveResponse> {
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
    },

    /** Keeps the game's data in a slot (any JSON up to GAME_SAVE_MAX_BYTES, else 413). */
    async writeSave(
      userId: string,
      gameId: string,
      data: unknown,
      slot = 0,
    ): Promise<GameSaveResponse> {
      const json = JSON.stringify(data);
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > GAME_SAVE_MAX_BYTES) {
        throw new HttpError(
          'PAYLOAD_TOO_LARGE',
          `The save is ${Math.ceil(bytes / 1024)} KB; a game may save at most ${GAME_SAVE_MAX_BYTES / 1024} KB`,
        );
      }
      const at = now();
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
    },

    /** The slots that hold a save, in slot order. */
    async listSlots(userId: string, gameId: string): Promise<SaveSlotSummary[]> {
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
    },

    /** Unlocks once: `created` only the first time; the first unlock time is kept. */
    async unlock(
      userId: string,
      gameId: string,
      name: string,
    ): Promise<{ created: boolean; name: string; unlockedAt: string }> {
      const inserted = await db
        .insert(gameAchievements)
        .select(
          db
            .select({
              userId: sql<string>`${userId}::uuid`.as('user_id'),
              gameId: sql<string>`${gameId}`.as('game_id'),
              name: sql<string>`${name}`.as('name'),
              unlockedAt: sql<Date>`${now().toISOString()}::timestamptz`.as('unlocked_at'),
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
      const [existing] = await db
        .select({ unlockedAt: gameAchievements.unlockedAt })
        .from(gameAchievements)
        .where(
          and(
            eq(gameAchievements.userId, userId),
            eq(gameAchievements.gameId, gameId),
            eq(gameAchievements.name, name),
          ),
        );
      if (!existing) {
        throw new HttpError(
          'CONFLICT',
          `A player may unlock at most ${ACHIEVEMENTS_PER_GAME_MAX} achievements in one game`,
        );
      }
      return { created: false, name, unlockedAt: existing.unlockedAt.toISOString() };
    },

    /** Every game the player has a record of, in catalogue order of first play. */
    async listForUser(userId: string): Promise<MyGameRecord[]> {
      const [stats, achievements] = await Promise.all([
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
      ]);
      const records = new Map<string, MyGameRecord>();
      const recordOf = (gameId: string): MyGameRecord => {
        let record = records.get(gameId);
        if (!record) {
          record = {
            gameId,
            title: titleOrId(deps.gameTitle, gameId),
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
      for (const achievement of achievements) {
        recordOf(achievement.gameId).achievements.push({
          name: achievement.name,
          unlockedAt: achievement.unlockedAt.toISOString(),
        });
      }
      return [...records.values()].sort(
        (a, b) =>
          (b.lastPlayed ?? '').localeCompare(a.lastPlayed ?? '') ||
          a.gameId.localeCompare(b.gameId),
      );
    },
  };
}

export type GamesService = ReturnType<typeof createGamesService>;
