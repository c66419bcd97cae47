import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { and, eq, isNotNull, sql } from 'drizzle-orm';

import { GAME_CATALOGUE, type GameCatalogueEntry } from '@portfolio/types';
import type { GameSection } from '@portfolio/types/game-host';

import type { Db } from '../../db/client.js';
import { gameBuilds, games } from '../../db/schema.js';
import { isFolder, type ObjectStorage } from '../../lib/storage/object-storage.js';
import type { GameCatalogue } from './catalogue.js';
import { versionPrefix } from './layout.js';
import type { Publisher } from './publish.js';

/*
 * The first start: the spec's built-in games become rows (published, in the spec's
 * order, with its titles, sections and locks), and each demo game folder of packages/games is
 * published as version 1 through the same path as an upload. Safe on every start and with
 * several processes starting together: rows are inserted with ON CONFLICT DO NOTHING (an
 * admin's edits are kept), and the imports run under a PostgreSQL advisory lock. A demo folder
 * that changed since its last import (a new release of the site) is imported again as a new
 * version, made live only while the live build is still a demo import; a demo build whose
 * folder is missing under GAMES_DIR (a new or emptied GAMES_DIR) is written again.
 */

/** Any constant shared by every process seeding this database. */
const SEED_LOCK_KEY = 727_100_016;

const SECTION_OF_ENGINE: Record<GameCatalogueEntry['engine'], GameSection> = {
  multiplayer: 'multiplayer',
  gamemaker: 'gamemaker',
  godot: 'godot',
};

/**
 * The built-in games that need a keyboard: Rocket Game and Pong, the same-keyboard
 * two-player games and the roguelike (WASD). WolfScape (tap to walk) and the Android game (its
 * own touch controls) play on a touch screen. All of them are landscape. Migration 0013 set the
 * same on databases seeded before it.
 */
export const KEYBOARD_ONLY_BUILT_INS: ReadonlySet<string> = new Set([
  'RocketGame',
  'Pong',
  'TopDownRogueLike',
  'CoopAdventure',
  'CompMultiplayerUCCS',
]);

/** A hash of a folder's files (names and contents), to tell a changed demo game. */
export async function hashFolder(folder: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string, prefix: string) => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(full, `${prefix}${entry.name}/`);
      } else if (entry.isFile()) {
        hash.update(`${prefix}${entry.name}\0`);
        hash.update(
          createHash('sha256')
            .update(await readFile(full))
            .digest(),
        );
      }
    }
  };
  await walk(folder, '');
  return hash.digest('hex');
}

/** Whether a build of these files was imported once and then deleted by an admin. */
async function wasDeleted(db: Db, gameId: string, sourceHash: string): Promise<boolean> {
  const rows = await db
    .select({ version: gameBuilds.version })
    .from(gameBuilds)
    .where(
      and(
        eq(gameBuilds.gameId, gameId),
        eq(gameBuilds.sourceHash, sourceHash),
        isNotNull(gameBuilds.deletedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function seedGameCatalogue(deps: {
  db: Db;
  /** Database.withLock: processes starting together take turns. */
  withLock: <T>(key: number, work: () => Promise<T>) => Promise<T>;
  catalogue: GameCatalogue;
  publisher: Publisher;
  /** packages/games: <GameId>/index.html + assets. */
  demoDir: string;
  /** The games storage (a recorded version whose objects are missing is written again). */
  storage: ObjectStorage;
}): Promise<void> {
  const { db, withLock, catalogue, publisher, demoDir, storage } = deps;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    await tx
      .insert(games)
      .values(
        GAME_CATALOGUE.map((entry, index): typeof games.$inferInsert => ({
          id: entry.id,
          title: entry.title,
          description: entry.description,
          instructions: entry.instructions,
          section: SECTION_OF_ENGINE[entry.engine],
          access: entry.access,
          sortOrder: index * 10,
          published: true,
          isBuiltIn: true,
          isMultiplayer: entry.isMultiplayer,
          serverType: entry.serverType ?? null,
          thumbnail: entry.thumbnail,
          touch: KEYBOARD_ONLY_BUILT_INS.has(entry.id) ? 'keyboard-only' : 'playable',
          orientation: 'landscape',
        })),
      )
      .onConflictDoNothing();
  });
  await catalogue.refresh();
  // each import under the session lock: publishing commits transactions of its own
  for (const entry of GAME_CATALOGUE) {
    const folder = path.join(demoDir, entry.id);
    if (!existsSync(path.join(folder, 'index.html'))) {
      continue;
    }
    const sourceHash = await hashFolder(folder);
    await withLock(SEED_LOCK_KEY, async () => {
      await catalogue.refresh();
      const record = catalogue.get(entry.id);
      if (!record) {
        return;
      }
      const imported = record.builds.find((build) => build.sourceHash === sourceHash);
      if (!imported && (await wasDeleted(db, entry.id, sourceHash))) {
        return; // an admin deleted this import: it does not come back at the next start
      }
      if (imported) {
        if (!(await isFolder(storage, versionPrefix(entry.id, imported.version)))) {
          await publisher.restoreFolder(entry.id, imported.version, folder);
        }
        return;
      }
      const live = record.builds.find((build) => build.version === record.game.liveVersion);
      const isDemoLive = record.game.liveVersion === null || (live?.sourceHash ?? null) !== null;
      await publisher.publishFolder(entry.id, folder, {
        actor: null,
        activate: isDemoLive,
        sourceHash,
      });
    });
  }
}
