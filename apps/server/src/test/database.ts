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
  const template = pgliteTemplate();
  return openDatabase({
    dataDir: 'memory://',
    ...(template ? { loadDataDir: template, migrate: false } : {}),
  });
}

let template: Blob | undefined;

/**
 * The global setup's migrated PGlite dump, read once per test process (a Blob is never changed
 * by reading it, and copying 40 MB into a new one for each app was a good part of its start).
 */
export function pgliteTemplate(): Blob | undefined {
  const file = process.env.PGLITE_TEMPLATE;
  if (file) {
    template ??= new Blob([readFileSync(file)]);
  }
  return template;
}
