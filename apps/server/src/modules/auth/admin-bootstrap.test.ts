import { readFileSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';

import type { LoginSuccess } from '@portfolio/types';

import { type Db, PGLITE_EXTENSIONS } from '../../db/client.js';
import { schema } from '../../db/schema.js';
import { openTestDatabase } from '../../test/database.js';
import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { insertUser } from '../../test/factories.js';
import { hashPassword } from './passwords.js';

/** Runs `fn` against the database the next app will start with; returns the PGlite dump if any. */
async function prepareDatabase(fn: (db: Db) => Promise<void>): Promise<{ loadDataDir?: Blob }> {
  if (process.env.DATABASE_URL) {
    const database = await openTestDatabase();
    await fn(database.db);
    await database.close();
    return {};
  }
  const template = process.env.PGLITE_TEMPLATE;
  if (!template) {
    throw new Error('PGLITE_TEMPLATE is not set (global setup did not run)');
  }
  const client = await PGlite.create('memory://', {
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: new Blob([readFileSync(template)]),
  });
  await fn(drizzle(client, { schema }));
  const dump = await client.dumpDataDir('none');
  await client.close();
  return { loadDataDir: dump };
}

async function withApp(app: TestApp, fn: (app: TestApp) => Promise<void>) {
  try {
    await fn(app);
  } finally {
    await app.stop();
  }
}

describe('admin from ADMIN_USERNAME / ADMIN_PASSWORD at start', () => {
  it('creates an admin who can log in', async () => {
    const admin = { username: uniqueName('admin'), password: 'admin password 1' };
    await withApp(await startTestApp({ admin }), async (app) => {
      const client = app.client();
      const login = await client.post<LoginSuccess>('/api/auth/login', admin);
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ username: admin.username, role: 'admin' });
      expect(await currentUserOf(client)).toMatchObject({ role: 'admin' });
    });
  });

  it('promotes an existing user of that name (any case) and leaves their password alone', async () => {
    const username = uniqueName('existing');
    const ownPassword = 'my own password';
    const prepared = await prepareDatabase(async (db) => {
      await insertUser(db, { username, passwordHash: await hashPassword(ownPassword) });
    });
    const admin = { username: username.toUpperCase(), password: 'admin password 1' };
    await withApp(await startTestApp({ admin }, prepared), async (app) => {
      const login = await app
        .client()
        .post<LoginSuccess>('/api/auth/login', { username, password: ownPassword });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ username, role: 'admin' });
      expect(
        (await app.client().post('/api/auth/login', { username, password: admin.password })).status,
      ).toBe(401);
    });
  });
});
