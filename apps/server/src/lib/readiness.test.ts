import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { MIGRATION_LOCK_KEY } from '../db/client.js';
import { startTestApp } from '../test/harness.js';
import { createScratchDatabase } from '../test/scratch-database.js';
import { freePort } from '../test/ports.js';

async function probe(url: string) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return { status: response.status, body: await response.json() };
}

// another replica migrating is a PostgreSQL advisory lock; PGlite migrates in-process at once
describe.skipIf(!process.env.DATABASE_URL)('GET /api/ready while migrations run', () => {
  it('is 503 "migrations running" (alive all the same) until the other replica is done', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'ready');
    // another replica holds the migration lock
    const other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const port = await freePort();
    const starting = startTestApp({ databaseUrl: scratch.url, port });
    try {
      let ready: { status: number; body: unknown } | undefined;
      for (let tries = 0; tries < 100 && !ready; tries++) {
        ready = await probe(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined);
        if (!ready) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(ready).toEqual({ status: 503, body: { ready: false, reason: 'migrations running' } });
      expect((await probe(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      expect((await probe(`http://127.0.0.1:${port}/api/games`)).status).toBe(503);
    } finally {
      await other.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await other.end();
    }
    const app = await starting;
    try {
      expect(await probe(`${app.url}/api/ready`)).toEqual({ status: 200, body: { ready: true } });
    } finally {
      await app.stop();
      await scratch.drop();
    }
  });
});
