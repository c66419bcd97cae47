import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GamesResponse } from '@portfolio/types/game-host';

import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database.js';
import {
  signedInClient,
  startIsolatedTestApp,
  startTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../test/harness.js';
import { makeZip, someScript } from '../game-host/test-zips.js';
import { BackupError, createBackup, latestMigration, restoreBackup } from './archive.js';

/**
 * A running site with users and a game of three versions is backed up, restored into a fresh
 * data folder (PGlite) or a fresh database (PostgreSQL, when DATABASE_URL is set), and a new
 * server started on it: the users sign in, the game and its versions serve their files.
 */

const PASSWORD = 'correct horse battery staple';
let work: string;
let site: TestApp;
let admin: TestClient;
const scratch: ScratchDatabase[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
  site = await startIsolatedTestApp();
  admin = (await signedInClient(site, 'admin')).client;
});

afterAll(async () => {
  await site?.stop();
  for (const database of scratch) {
    await database.drop();
  }
  rmSync(work, { recursive: true, force: true });
});

async function upload(gameId: string, label: string) {
  const response = await fetch(`${site.url}/api/admin/games/${gameId}/build`, {
    method: 'PUT',
    body: await makeZip({
      'index.html': `<!DOCTYPE html><html><body>${label}<script src="game.js"></script></body></html>`,
      'game.js': someScript(label),
    }),
    headers: { 'content-type': 'application/zip', cookie: admin.cookieHeader },
  });
  expect(response.status).toBe(201);
}

async function register(app: TestApp, username: string) {
  const response = await app
    .client()
    .post('/api/auth/register', { username, password: PASSWORD, email: `${username}@example.org` });
  expect(response.status).toBe(201);
}

async function signIn(app: TestApp, username: string) {
  return (await app.client().post('/api/auth/login', { username, password: PASSWORD })).status;
}

/** A fresh place to restore into: an empty DATA_DIR and GAMES_DIR, and on PostgreSQL a new database. */
async function freshTarget(name: string) {
  const dataDir = path.join(work, name, 'data');
  const gamesDir = path.join(work, name, 'games');
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const database = await createScratchDatabase(process.env.DATABASE_URL, 'restore');
    scratch.push(database);
    databaseUrl = database.url;
  }
  return { dataDir, gamesDir, databaseUrl };
}

describe('npm run backup / npm run restore', () => {
  it('brings back users who can sign in, and every version of a game with its files', async () => {
    const users = [uniqueName('kept'), uniqueName('kept')];
    for (const username of users) {
      await register(site, username);
    }
    const gameId = `B${randomBytes(4).toString('hex')}`;
    expect(
      (
        await admin.post('/api/admin/games', {
          id: gameId,
          title: `Game ${gameId}`,
          description: 'A game that is backed up',
          instructions: 'Press keys.',
          section: 'html5',
          access: 'public',
        })
      ).status,
    ).toBe(201);
    for (const label of ['first', 'second', 'third']) {
      await upload(gameId, label);
    }
    expect(
      (await admin.request('PATCH', `/api/admin/games/${gameId}`, { published: true })).status,
    ).toBe(200);

    const archive = path.join(work, 'site.tar.gz');
    const manifest = await createBackup(
      {
        database: site.deps.database,
        databaseUrl: site.deps.config.databaseUrl,
        gamesDir: site.deps.config.gamesHost.dir,
      },
      archive,
    );
    expect(manifest).toMatchObject({
      format: 1,
      database: site.deps.config.databaseUrl ? 'postgres' : 'pglite',
      migration: (await latestMigration()).tag,
    });
    expect(manifest.gameFiles).toBeGreaterThanOrEqual(6);

    const target = await freshTarget('restored');
    await restoreBackup(archive, target);

    // a new server on the restored data, with the site's secret
    const restored = await startTestApp(
      {
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        sessionSecret: site.deps.config.sessionSecret,
        gamesHost: { ...site.deps.config.gamesHost, port: 0, dir: target.gamesDir },
      },
      { loadDataDir: undefined },
    );
    try {
      for (const username of users) {
        expect(await signIn(restored, username)).toBe(200);
      }
      expect(
        (await restored.client().post('/api/auth/login', { username: users[0], password: 'wrong' }))
          .status,
      ).toBe(401);
      const games = await restored.client().get<GamesResponse>('/api/games');
      const game = games.body.games.find((entry) => entry.id === gameId);
      expect(game?.playUrl).toBeTruthy();
      // the live version (the last upload) and the two before it serve their own files
      for (const [version, label] of [
        [3, 'third'],
        [2, 'second'],
        [1, 'first'],
      ] as const) {
        const page = await fetch(`${restored.gamesUrl}/${gameId}/${version}/index.html`);
        if (version === 3) {
          expect(page.status).toBe(200);
        }
        if (page.status === 200) {
          expect(await page.text()).toContain(label);
        }
      }
      // the first version, made live again by an admin of the restored site, plays as before
      const restoredAdmin = (await signedInClient(restored, 'admin')).client;
      expect(
        (await restoredAdmin.post(`/api/admin/games/${gameId}/builds/1/activate`)).status,
      ).toBe(200);
      const first = await fetch(`${restored.gamesUrl}/${gameId}/1/index.html`);
      expect(first.status).toBe(200);
      expect(await first.text()).toContain('first');
    } finally {
      await restored.stop();
    }
  });

  it('refuses a target that already holds data, saying which', async () => {
    const archive = path.join(work, 'again.tar.gz');
    await createBackup(
      {
        database: site.deps.database,
        databaseUrl: site.deps.config.databaseUrl,
        gamesDir: site.deps.config.gamesHost.dir,
      },
      archive,
    );
    const used = await freshTarget('used');
    mkdirSync(path.join(used.gamesDir, 'Something'), { recursive: true });
    writeFileSync(path.join(used.gamesDir, 'Something', 'index.html'), 'x');
    await expect(restoreBackup(archive, used)).rejects.toThrow(
      new BackupError(
        `GAMES_DIR ${used.gamesDir} is not empty: restore into an empty folder (move it aside first)`,
      ),
    );
    // the site's own database is not empty
    const onSite = {
      dataDir: path.join(work, 'site-data'),
      gamesDir: path.join(work, 'site-games'),
      databaseUrl: site.deps.config.databaseUrl,
    };
    if (site.deps.config.databaseUrl) {
      await expect(restoreBackup(archive, onSite)).rejects.toThrow(
        'the database DATABASE_URL names is not empty: restore into a new, empty database',
      );
    } else {
      mkdirSync(path.join(onSite.dataDir, 'pglite'), { recursive: true });
      writeFileSync(path.join(onSite.dataDir, 'pglite', 'PG_VERSION'), '17');
      await expect(restoreBackup(archive, onSite)).rejects.toThrow(
        `DATA_DIR ${onSite.dataDir} already holds a database`,
      );
    }
    await expect(restoreBackup(path.join(work, 'missing.tar.gz'), used)).rejects.toThrow(
      'no such file',
    );
  });
});
