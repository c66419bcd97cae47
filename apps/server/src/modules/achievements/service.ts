import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { and, asc, eq, sql } from 'drizzle-orm';

import {
  ACHIEVEMENT_DEFS_PER_GAME_MAX,
  type AchievementDef,
  type AdminAchievementsResponse,
  type CatalogueAchievement,
  type GameAchievementsResponse,
  HIDDEN_ACHIEVEMENT_NAME,
  type PutAchievementRequest,
} from '@portfolio/types/achievements';

import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { gameAchievementDefs, gameAchievements } from '../../db/schema.js';
import { conflict, HttpError, notFound } from '../../lib/errors.js';
import { sniffImage } from '../game-host/index.js';
import { recordGameAudit } from '../../access/game-audit.js';
import type { Actor } from '../../access/audit.js';

/*
 * A game's achievement catalogue: definitions by the admin (with an icon uploaded like the
 * game's thumbnail), what each player sees (hidden ones nameless until unlocked, the share of
 * players who have each), and the rule GameSDK.unlock follows: a game with a catalogue unlocks
 * only what it defines; a game without one keeps its free-form names.
 */

type DefRow = typeof gameAchievementDefs.$inferSelect;

const DECLARED_TYPE: Record<string, 'png' | 'jpg' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** An icon's file name: a hash of the key (keys are free text), never a path. */
const iconFileOf = (key: string, type: string) =>
  `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.${type}`;

export const ACHIEVEMENT_ICON_FILE = /^[0-9a-f]{16}\.(png|jpg|webp)$/;

/** Where the site serves an achievement's icon (the versioned address of its file). */
export const achievementIconUrl = (gameId: string, row: Pick<DefRow, 'icon' | 'updatedAt'>) =>
  row.icon
    ? `/api/games/${encodeURIComponent(gameId)}/achievement-icons/${path.basename(row.icon)}?v=${row.updatedAt
        .getTime()
        .toString(36)}`
    : null;

/** The folder of a game's achievement icons. */
export const achievementIconDir = (gamesDir: string, gameId: string) =>
  path.join(gamesDir, gameId, 'achievements');

export function createAchievementService(deps: { db: Db; gamesDir: string }) {
  const { db, gamesDir } = deps;

  const toDef = (row: DefRow, players: number): AchievementDef => ({
    key: row.key,
    name: row.name,
    description: row.description,
    points: row.points,
    hidden: row.hidden,
    iconUrl: achievementIconUrl(row.gameId, row),
    players,
  });

  async function definitions(gameId: string): Promise<DefRow[]> {
    return db
      .select()
      .from(gameAchievementDefs)
      .where(eq(gameAchievementDefs.gameId, gameId))
      .orderBy(asc(gameAchievementDefs.createdAt), asc(gameAchievementDefs.key));
  }

  /** Players per unlocked name in a game, and players with any record of it. */
  async function counts(gameId: string) {
    const [perName, [total]] = await Promise.all([
      db
        .select({ name: gameAchievements.name, players: sql<number>`count(*)::int` })
        .from(gameAchievements)
        .where(eq(gameAchievements.gameId, gameId))
        .groupBy(gameAchievements.name),
      // everyone with a record of the game: play, a save, or an unlock
      rowsOf<{ players: number }>(
        db,
        sql`select count(*)::int as players from (
          select user_id from game_stats where game_id = ${gameId}
          union select user_id from game_achievements where game_id = ${gameId}) as players`,
      ),
    ]);
    const byName = new Map(perName.map((row) => [row.name, Number(row.players)]));
    const players = Number(total?.players ?? 0);
    return { byName, players };
  }

  async function findDef(gameId: string, key: string): Promise<DefRow> {
    const [row] = await db
      .select()
      .from(gameAchievementDefs)
      .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)));
    if (!row) {
      throw notFound(`No achievement '${key}' in this game`);
    }
    return row;
  }

  return {
    /** The admin's view: definitions with how many players have each, and undefined names. */
    async adminView(gameId: string): Promise<AdminAchievementsResponse> {
      const [rows, { byName, players }] = await Promise.all([definitions(gameId), counts(gameId)]);
      const defined = new Set(rows.map((row) => row.key));
      return {
        achievements: rows.map((row) => toDef(row, byName.get(row.key) ?? 0)),
        undefined: [...byName]
          .filter(([name]) => !defined.has(name))
          .map(([key, count]) => ({ key, players: count }))
          .sort((a, b) => b.players - a.players || a.key.localeCompare(b.key)),
        players,
      };
    },

    /** The catalogue as a player (or a guest, without `userId`) sees it. */
    async catalogue(gameId: string, userId?: string): Promise<GameAchievementsResponse> {
      const [rows, { byName, players }, mine] = await Promise.all([
        definitions(gameId),
        counts(gameId),
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
    },

    /**
     * GameSDK.unlock's rule: a game with a catalogue unlocks only what it defines (404 else); a
     * game without one takes any name, as before catalogues.
     */
    async checkUnlock(gameId: string, key: string): Promise<void> {
      const [found] = await db
        .select({
          defines: sql<boolean>`bool_or(${gameAchievementDefs.key} = ${key})`,
          count: sql<number>`count(*)::int`,
        })
        .from(gameAchievementDefs)
        .where(eq(gameAchievementDefs.gameId, gameId));
      if (found && Number(found.count) > 0 && !found.defines) {
        throw new HttpError(
          404,
          'UNKNOWN_ACHIEVEMENT',
          `No achievement '${key}' in this game's catalogue`,
        );
      }
    },

    /** Defines an achievement or changes one; defining an undefined name adopts it. */
    async put(
      gameId: string,
      key: string,
      input: PutAchievementRequest,
      actor: Actor,
    ): Promise<{ created: boolean; achievement: AchievementDef }> {
      const result = await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(gameAchievementDefs)
          .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
          .for('update');
        if (!existing) {
          const [{ count } = { count: 0 }] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(gameAchievementDefs)
            .where(eq(gameAchievementDefs.gameId, gameId));
          if (Number(count) >= ACHIEVEMENT_DEFS_PER_GAME_MAX) {
            throw conflict(
              `A game may define at most ${ACHIEVEMENT_DEFS_PER_GAME_MAX} achievements`,
            );
          }
        }
        const [row] = existing
          ? await tx
              .update(gameAchievementDefs)
              .set({ ...input, updatedAt: new Date() })
              .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
              .returning()
          : await tx
              .insert(gameAchievementDefs)
              .values({ gameId, key, ...input })
              .returning();
        if (!row) {
          throw notFound(`No game with the id '${gameId}'`);
        }
        await recordGameAudit(tx, {
          action: 'achievement-save',
          actor,
          gameId,
          detail: existing
            ? `Achievement '${row.name}' changed`
            : `Achievement '${row.name}' (${key}) added, ${row.points} points${row.hidden ? ', hidden' : ''}`,
        });
        return { created: !existing, row };
      });
      const { byName } = await counts(gameId);
      return {
        created: result.created,
        achievement: toDef(result.row, byName.get(key) ?? 0),
      };
    },

    /** Deletes a definition (and its icon); players keep their unlocks, shown as undefined. */
    async remove(gameId: string, key: string, actor: Actor): Promise<void> {
      const row = await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(gameAchievementDefs)
          .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
          .returning();
        if (!deleted) {
          throw notFound(`No achievement '${key}' in this game`);
        }
        await recordGameAudit(tx, {
          action: 'achievement-delete',
          actor,
          gameId,
          detail: `Achievement '${deleted.name}' (${key}) deleted; players keep it`,
        });
        return deleted;
      });
      if (row.icon) {
        await rm(path.join(gamesDir, gameId, row.icon), { force: true });
      }
    },

    /** Keeps an achievement's icon (PNG, JPEG or WebP, sniffed like the game's thumbnail). */
    async setIcon(
      gameId: string,
      key: string,
      image: Buffer,
      contentType: string,
      actor: Actor,
    ): Promise<AchievementDef> {
      const def = await findDef(gameId, key);
      const type = sniffImage(image);
      if (!type) {
        throw new HttpError(400, 'BAD_IMAGE', 'The icon is not a PNG, JPEG or WebP image.');
      }
      if (DECLARED_TYPE[contentType] !== type) {
        throw new HttpError(
          400,
          'BAD_IMAGE',
          `The icon is a ${type.toUpperCase()} image but was sent as ${contentType}.`,
        );
      }
      const dir = achievementIconDir(gamesDir, gameId);
      await mkdir(dir, { recursive: true });
      const name = iconFileOf(key, type);
      const temporary = path.join(dir, `.${name}.${process.pid}.${Date.now()}`);
      await writeFile(temporary, image);
      await rename(temporary, path.join(dir, name));
      const stem = name.slice(0, name.indexOf('.'));
      for (const file of await readdir(dir)) {
        if (file.startsWith(`${stem}.`) && file !== name) {
          await rm(path.join(dir, file), { force: true });
        }
      }
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(gameAchievementDefs)
          .set({ icon: `achievements/${name}`, updatedAt: new Date() })
          .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
          .returning();
        await recordGameAudit(tx, {
          action: 'achievement-icon',
          actor,
          gameId,
          detail: `Icon of achievement '${def.name}' uploaded (${Math.ceil(image.length / 1024)} KB)`,
        });
        return updated ?? def;
      });
      const { byName } = await counts(gameId);
      return toDef(row, byName.get(key) ?? 0);
    },

    /**
     * The definitions of the achievements a player holds, by game and key (the profile and the
     * admin's user page show their names, icons and points).
     */
    async definitionsFor(userId: string): Promise<Map<string, DefRow>> {
      const rows = await db
        .select({ def: gameAchievementDefs })
        .from(gameAchievements)
        .innerJoin(
          gameAchievementDefs,
          and(
            eq(gameAchievementDefs.gameId, gameAchievements.gameId),
            eq(gameAchievementDefs.key, gameAchievements.name),
          ),
        )
        .where(eq(gameAchievements.userId, userId));
      return new Map(rows.map(({ def }) => [`${def.gameId}\u0000${def.key}`, def]));
    },
  };
}

export type AchievementService = ReturnType<typeof createAchievementService>;
