import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../db/client.js';
import { startS3Server } from './s3-server.js';

/**
 * Runs initdb and the migrations once, and leaves a dump every test file starts its own
 * PGlite from (~1 s instead of ~5 s each). With DATABASE_URL set, tests use PostgreSQL instead.
 * With TEST_STORAGE=s3, starts one moto_server for the run (TEST_S3_ENDPOINT): every test app
 * keeps its builds and media in a bucket of its own there (harness.ts).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const s3 = process.env.TEST_STORAGE === 's3' ? await startS3Server() : undefined;
  if (s3) {
    process.env.TEST_S3_ENDPOINT = s3.endpoint;
  }
  const teardown = s3 ? () => s3.stop() : undefined;
  if (process.env.DATABASE_URL) {
    return teardown;
  }
  const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await teardown?.();
  };
}
