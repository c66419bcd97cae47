import { mkdirSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

import { MIGRATIONS_DIR } from '../lib/paths.js';
import { schema } from './schema.js';
import { moduleLogger } from '../lib/logger.js';

const log = moduleLogger('db');

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /**
   * Runs `work` holding a PostgreSQL session advisory lock `key` (on a connection of its own, so
   * `work` may use the pool), so processes sharing the database take turns. PGlite is one
   * process: callers take turns in memory.
   */
  withLock<T>(key: number, work: () => Promise<T>): Promise<T>;
  /** PGlite only: the whole data directory as one tar (a consistent copy, for backups). */
  dumpDataDir?: () => Promise<Blob>;
  /** The PostgreSQL pool's connections (metrics); undefined on PGlite. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  close(): Promise<void>;
}

export { MIGRATIONS_DIR };

/** Extensions the migrations create; PGlite must load them into every instance. */
export const PGLITE_EXTENSIONS = { pg_trgm };

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data folder; `memory://` for a throwaway database. */
  dataDir?: string;
  /** Start PGlite from a dumped data directory (tests). */
  loadDataDir?: Blob;
  migrate?: boolean;
}

/** Any constant shared by every process that migrates this database. */
export const MIGRATION_LOCK_KEY = 727_100_001;

/**
 * Applies the migrations under a session advisory lock: replicas (or test workers) that start
 * together take turns, and the later ones find nothing left to do, instead of racing to create
 * the same schema.
 */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite, and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    // while PostgreSQL is down or restarting, a request fails within 2 s instead of waiting for
    // a connection; one query may run at most 15 s
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 2000,
      query_timeout: 15_000,
    });
    // an idle connection dropped by a restart: logged once per outage, the pool reconnects
    let idleErrorLogged = false;
    pool.on('error', (error) => {
      if (!idleErrorLogged) {
        log.warn({ reason: error.message }, 'connection lost');
        idleErrorLogged = true;
        setTimeout(() => (idleErrorLogged = false), 10_000).unref();
      }
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (shouldMigrate) {
      await migratePostgres(pool);
    }
    return {
      db,
      kind: 'postgres',
      async withLock(key, work) {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [key]);
          try {
            return await work();
          } finally {
            await client.query('SELECT pg_advisory_unlock($1)', [key]);
          }
        } finally {
          client.release();
        }
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir, {
    extensions: PGLITE_EXTENSIONS,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  if (shouldMigrate) {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
  }
  // one process: the lock is a queue in memory
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: 'pglite',
    withLock(_key, work) {
      const run = queue.catch(() => undefined).then(work);
      queue = run;
      return run;
    },
    // the dump runs as one query would: PGlite serves one statement at a time
    dumpDataDir: () => client.dumpDataDir('none'),
    poolStats: () => undefined,
    close: () => client.close(),
  };
}
