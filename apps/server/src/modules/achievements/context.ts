import { createHash } from 'node:crypto';
import path from 'node:path';

import { and, asc, eq, sql } from 'drizzle-orm';

import type { AchievementDef } from '@portfolio/types/achievements';

import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { gameAchievementDefs, gameAchievements } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';

/** What every achievement command and query works with. */
export interface AchievementContext {
  db: Db;
  /** The games storage: icons are `<gameId>/achievements/<file>` beside the game's builds. */
  storage: ObjectStorage;
}

export type DefRow = typeof gameAchievementDefs.$inferSelect;

/** An icon's file name: a hash of the key (keys are free text), never a path. */
export const iconFileOf = (key: string, type: string) =>
  `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.${type}`;

export const ACHIEVEMENT_ICON_FILE = /^[0-9a-f]{16}\.(png|jpg|webp)$/;

/** Where the site serves an achievement's icon (the versioned address of its file). */
export const achievementIconUrl = (gameId: string, row: Pick<DefRow, 'icon' | 'updatedAt'>) =>
  row.icon
    ? `/api/games/${encodeURIComponent(gameId)}/achievement-icons/${path.basename(row.icon)}?v=${row.updatedAt
        .getTime()
        .toString(36)}`
    : null;

/** The storage prefix of a game's achievement icons. */
export const achievementIconPrefix = (gameId: string) => `${gameId}/achievements/`;

export const toDef = (row: DefRow, players: number): AchievementDef => ({
  key: row.key,
  name: row.name,
  description: row.description,
  points: row.points,
  hidden: row.hidden,
  iconUrl: achievementIconUrl(row.gameId, row),
  players,
});

/** A game's definitions, oldest first. */
export async function definitions({ db }: AchievementContext, gameId: string): Promise<DefRow[]> {
  return db
    .select()
    .from(gameAchievementDefs)
    .where(eq(gameAchievementDefs.gameId, gameId))
    .orderBy(asc(gameAchievementDefs.createdAt), asc(gameAchievementDefs.key));
}

/** Players per unlocked name in a game, and players with any record of it. */
export async function counts({ db }: AchievementContext, gameId: string) {
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

export async function findDef(
  { db }: AchievementContext,
  gameId: string,
  key: string,
): Promise<DefRow> {
  const [row] = await db
    .select()
    .from(gameAchievementDefs)
    .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)));
  if (!row) {
    throw notFound(`No achievement '${key}' in this game`);
  }
  return row;
}
