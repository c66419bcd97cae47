import { readFileSync } from 'node:fs';

import { type Database, openDatabase } from '../db/client.js';

/**
 * A migrated database for tests that need one without the HTTP app: PostgreSQL when DATABASE_URL
 * is set, else an in-memory PGlite started from the global-setup template.
 */
export function openTestDatabase(): Promise<Database> {
  if (process.env.DATABASE_URL) {
    return openDatabase({ databaseUrl: process.env.DATABASE_URL });
  }
  const template = process.env.PGLITE_TEMPLATE;
  return openDatabase({
    dataDir: 'memory://',
    ...(template ? { loadDataDir: new Blob([readFileSync(template)]), migrate: false } : {}),
  });
}
