import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import type { GameAuditEntry } from '@portfolio/types/game-host';

import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { createLocalStorage } from '../../lib/storage/local-storage.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { type GameAdminService, createGameAdminService } from './admin-service.js';
import { listGameAudit } from '../../access/game-audit.js';
import { type GameCatalogue, createGameCatalogue } from './catalogue.js';
import { createGameResolver, type ResolveGame } from './resolve-game.js';
import { type GameGrants, createGameGrants } from './grants.js';
import { incomingDir } from './layout.js';
import { type Publisher, createPublisher } from './publish.js';
import { seedGameCatalogue } from './seed.js';
import { type AdminTokens, createAdminTokens } from '../../access/api-tokens.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('game-host');

/** Everything the game host's routes use, built once (container.ts). */
export interface GameHost {
  /** The catalogue in memory; also the games origin's GameHostCatalogue. */
  catalogue: GameCatalogue;
  /** The one way a game-scoped route finds its game or is refused (resolve-game.ts). */
  resolveGame: ResolveGame;
  publisher: Publisher;
  admin: GameAdminService;
  tokens: AdminTokens;
  grants: GameGrants;
  audit(gameId: string | undefined): Promise<GameAuditEntry[]>;
  /** Builds, thumbnails and achievement icons (GAMES_DIR, or the bucket). */
  storage: ObjectStorage;
}

/** Uploads left in .incoming this long ago were abandoned (a crash, a restart mid-upload). */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Removes what a crash left in GAMES_DIR/.incoming; only old entries, as another process sharing
 * GAMES_DIR may be receiving an upload right now.
 */
async function removeAbandonedUploads(gamesDir: string): Promise<void> {
  const dir = incomingDir(gamesDir);
  const entries = await readdir(dir).catch(() => []);
  const before = Date.now() - ABANDONED_UPLOAD_MS;
  for (const name of entries) {
    const entry = path.join(dir, name);
    const stats = await stat(entry).catch(() => undefined);
    if (stats && stats.mtimeMs < before) {
      await rm(entry, { recursive: true, force: true });
    }
  }
}

/** The catalogue is read again this often anyway (a missed bus message heals by itself). */
export const CATALOGUE_REFRESH_INTERVAL_MS = 60_000;

/**
 * Builds the game host, seeds the built-in catalogue and demo builds (first start, or a changed
 * demo folder) and reads the catalogue into memory.
 */
export async function createGameHost(deps: {
  config: Config;
  database: Database;
  bus: InvalidationBus;
  /** packages/games (the demo games imported at first start). */
  demoDir: string;
  /** Where builds are kept (container.ts: from the configuration); GAMES_DIR when not given. */
  storage?: ObjectStorage;
}): Promise<GameHost> {
  const { config, database, bus } = deps;
  const { db } = database;
  const catalogue = createGameCatalogue({ db, bus });
  const storage = deps.storage ?? createLocalStorage(config.gamesHost.dir);
  const publisher = createPublisher({ db, config: config.gamesHost, catalogue, storage });
  const host: GameHost = {
    catalogue,
    resolveGame: createGameResolver(catalogue),
    publisher,
    admin: createGameAdminService({ db, catalogue, storage }),
    tokens: createAdminTokens(db),
    grants: createGameGrants(config.sessionSecret),
    audit: (gameId) => listGameAudit(db, gameId),
    storage,
  };
  await removeAbandonedUploads(config.gamesHost.dir).catch((error: unknown) =>
    log.warn({ err: error }, 'could not clear old uploads'),
  );
  try {
    await seedGameCatalogue({
      db,
      withLock: (key, work) => database.withLock(key, work),
      catalogue,
      publisher,
      demoDir: deps.demoDir,
      storage,
    });
  } catch (error) {
    // the site still starts (the games origin serves what is there); the log says why
    log.error({ err: error }, 'importing the demo games failed');
  }
  await catalogue.refresh();
  return host;
}
