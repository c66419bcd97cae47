import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GamesResponse } from '@portfolio/types/game-host';

import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database.js';
import {
  startIsolatedTestApp,
  startTestApp,
  type TestApp,
  type TestClient,
} from '../../test/harness.js';
import {
  buildGame,
  buildGameBuild,
  buildImage,
  buildUser,
  plainBuild,
  publishGame,
  signedInClient,
  signIn,
} from '../../test/factories.js';
import { BackupError, createBackup, latestMigration, restoreBackup } from './archive.js';

/**
 * A running site with users, a game of three versions and an uploaded image is backed up,
 * restored into a fresh data folder (PGlite) or a fresh database (PostgreSQL, when DATABASE_URL
 * is set), and a new server started on it: the users sign in, the game and its versions serve
 * their files, the image's URLs serve the same bytes.
 */

const run = promisify(execFile);

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

const backupSource = () => ({
  database: site.deps.database,
  databaseUrl: site.deps.config.databaseUrl,
  gamesDir: site.deps.config.gamesHost.dir,
  mediaDir: site.deps.config.media.dir,
});

/**
 * A fresh place to restore into: an empty DATA_DIR, GAMES_DIR and MEDIA_DIR (DATA_DIR/media, the
 * default), and on PostgreSQL a new database.
 */
async function freshTarget(name: string) {
  const dataDir = path.join(work, name, 'data');
  const gamesDir = path.join(work, name, 'games');
  const mediaDir = path.join(dataDir, 'media');
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const database = await createScratchDatabase(process.env.DATABASE_URL, 'restore');
    scratch.push(database);
    databaseUrl = database.url;
  }
  return { dataDir, gamesDir, mediaDir, databaseUrl };
}

describe('npm run backup / npm run restore', () => {
  it('brings back users who can sign in, every version of a game with its files, and media', async () => {
    const users = [
      await buildUser(site, { prefix: 'kept', password: PASSWORD, email: true }),
      await buildUser(site, { prefix: 'kept', password: PASSWORD, email: true }),
    ];
    const gameId = await buildGame(admin, {
      id: `B${randomBytes(4).toString('hex')}`,
      description: 'A game that is backed up',
    });
    for (const label of ['first', 'second', 'third']) {
      await buildGameBuild(admin, gameId, plainBuild(label));
    }
    await publishGame(admin, gameId);

    const media = await buildImage(admin, {
      width: 400,
      height: 300,
      background: '#3366aa',
      fileName: 'backed up.png',
    });
    const mediaUrls = [media.url, media.thumbnail, ...media.variants.map((variant) => variant.src)];
    const mediaBytes = new Map<string, Buffer>();
    for (const url of mediaUrls) {
      const response = await fetch(site.url + url);
      expect(response.status).toBe(200);
      mediaBytes.set(url, Buffer.from(await response.arrayBuffer()));
    }
    // an upload on its way is not part of the site: it stays out of the archive
    const inProgress = path.join(site.deps.config.media.dir, '.incoming', 'in-progress');
    mkdirSync(inProgress, { recursive: true });
    writeFileSync(path.join(inProgress, 'upload'), 'half a file');

    const archive = path.join(work, 'site.tar.gz');
    const manifest = await createBackup(backupSource(), archive);
    expect(manifest).toMatchObject({
      format: 2,
      database: site.deps.config.databaseUrl ? 'postgres' : 'pglite',
      migration: (await latestMigration()).tag,
      mediaFiles: mediaBytes.size,
    });
    expect(manifest.gameFiles).toBeGreaterThanOrEqual(6);

    const target = await freshTarget('restored');
    await restoreBackup(archive, target);
    expect(readdirSync(target.mediaDir).sort()).toEqual(
      [...mediaBytes.keys()].map((url) => url.replace('/media/', '')).sort(),
    );

    // a new server on the restored data, with the site's secret
    const restored = await startTestApp(
      {
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        sessionSecret: site.deps.config.sessionSecret,
        gamesHost: { ...site.deps.config.gamesHost, port: 0, dir: target.gamesDir },
        media: { ...site.deps.config.media, dir: target.mediaDir },
      },
      { loadDataDir: undefined },
    );
    try {
      for (const user of users) {
        await signIn(restored.client(), user);
      }
      expect(
        (
          await restored
            .client()
            .post('/api/auth/login', { username: users[0]?.username, password: 'wrong' })
        ).status,
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
      // the uploaded image's files serve the same bytes
      for (const [url, bytes] of mediaBytes) {
        const response = await fetch(restored.url + url);
        expect(response.status, url).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes), url).toBe(true);
      }
    } finally {
      await restored.stop();
    }
  });

  it('refuses a target that already holds data, saying which', async () => {
    const archive = path.join(work, 'again.tar.gz');
    await createBackup(backupSource(), archive);
    const withMedia = await freshTarget('with-media');
    mkdirSync(withMedia.mediaDir, { recursive: true });
    writeFileSync(path.join(withMedia.mediaDir, 'old.webp'), 'x');
    await expect(restoreBackup(archive, withMedia)).rejects.toThrow(
      new BackupError(
        `MEDIA_DIR ${withMedia.mediaDir} is not empty: restore into an empty folder (move it aside first)`,
      ),
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
      mediaDir: path.join(work, 'site-media'),
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

  it('still restores an archive of format 1, made before media were archived', async () => {
    const archive = path.join(work, 'current.tar.gz');
    await createBackup(backupSource(), archive);
    // the same archive as format 1 wrote it: no media/ folder, no mediaFiles
    const unpacked = path.join(work, 'format-1');
    mkdirSync(unpacked);
    await run('tar', ['-xzf', archive, '-C', unpacked]);
    rmSync(path.join(unpacked, 'media'), { recursive: true, force: true });
    const manifestFile = path.join(unpacked, 'manifest.json');
    const { mediaFiles: _dropped, ...rest } = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      mediaFiles?: number;
    };
    writeFileSync(manifestFile, JSON.stringify({ ...rest, format: 1 }));
    const old = path.join(work, 'format-1.tar.gz');
    await run('tar', ['-czf', old, '-C', unpacked, '.']);

    const target = await freshTarget('from-format-1');
    const manifest = await restoreBackup(old, target);
    expect(manifest).toMatchObject({ format: 1, mediaFiles: 0 });
    expect(existsSync(target.mediaDir)).toBe(true);
    expect(readdirSync(target.mediaDir)).toEqual([]);
    expect(readdirSync(target.gamesDir).length).toBeGreaterThan(0);
  });
});
