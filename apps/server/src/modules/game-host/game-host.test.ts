import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GAME_CATALOGUE, MyGamesResponse, Profile, UserDetail } from '@portfolio/types';
import { formatBytes } from '@portfolio/types/format';
import type {
  AdminGameResponse,
  AdminGamesResponse,
  CreateAdminTokenResponse,
  GameAuditResponse,
  GameBuildResponse,
  GameEntry,
  GamesResponse,
} from '@portfolio/types/game-host';

import { type Database, openDatabase } from '../../db/client.js';
import { adminTokens, gameBuilds } from '../../db/schema.js';
import { DEFAULT_GAMES_DIR, SERVER_ROOT } from '../../lib/paths.js';
import { createLocalInvalidationBus } from '../../lib/invalidation-bus.js';
import { openTestDatabase } from '../../test/database.js';
import { createScratchDatabase } from '../../test/scratch-database.js';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import {
  buildGame,
  buildPublishedGame,
  plainBuild,
  signedInClient,
  uniqueGameId,
  uploadBuild,
} from '../../test/factories.js';
import { scaled } from '../../test/slow-machine.js';
import { createGameHost } from './service.js';
import {
  ENGINE_FIXTURES,
  lowEntropyText,
  makeZip,
  makeZipWithRawName,
  someScript,
} from './test-zips.js';

const GAMES_ORIGIN = 'http://games.test.localhost';
const LIMITS = {
  uploadMaxBytes: 1024 * 1024,
  zipMaxFiles: 50,
  zipMaxUnpackedBytes: 2 * 1024 * 1024,
  zipMaxRatio: 200,
};

let app: TestApp;
let gamesDir: string;
let admin: TestClient;
let adminName: string;

beforeAll(async () => {
  gamesDir = mkdtempSync(path.join(tmpdir(), 'game-host-test-'));
  app = await startTestApp({
    gamesHost: { origin: GAMES_ORIGIN, port: 0, dir: gamesDir, ...LIMITS },
  });
  const signedIn = await signedInClient(app, 'admin');
  admin = signedIn.client;
  adminName = signedIn.username;
});

afterAll(async () => {
  await app?.stop();
  rmSync(gamesDir, { recursive: true, force: true });
});

interface ErrorBody {
  error: { message: string };
}

/** Whether the app's games storage holds `key` (GAMES_DIR, or the bucket with TEST_STORAGE=s3). */
const isStored = async (key: string) => (await app.deps.gameHost.storage.head(key)) !== undefined;

/** The keys under `prefix` in the app's games storage, relative to it. */
const storedUnder = async (prefix: string) =>
  (await app.deps.gameHost.storage.list(prefix)).map((info) => info.key.slice(prefix.length));

async function adminGame(gameId: string) {
  const response = await admin.get<AdminGamesResponse>('/api/admin/games');
  expect(response.status).toBe(200);
  return response.body.games.find((game) => game.id === gameId);
}

async function listGames(client: TestClient) {
  const response = await client.get<GamesResponse>('/api/games');
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toMatch(/no-store/);
  return response.body.games;
}

const SECTION_OF_ENGINE = {
  multiplayer: 'multiplayer',
  gamemaker: 'gamemaker',
  godot: 'godot',
} as const;

describe('the seeded catalogue', () => {
  it('shows guests the built-in cards, titles, sections and locks, each a published build', async () => {
    const games = await listGames(app.client());
    const builtIn = games.filter((game) => GAME_CATALOGUE.some((entry) => entry.id === game.id));
    expect(builtIn.map((game) => game.id)).toEqual(GAME_CATALOGUE.map((entry) => entry.id));
    for (const entry of GAME_CATALOGUE) {
      const game = builtIn.find((candidate) => candidate.id === entry.id);
      expect(game).toMatchObject({
        title: entry.title,
        description: entry.description,
        thumbnail: entry.thumbnail,
        instructions: entry.instructions,
        access: entry.access,
        isMultiplayer: entry.isMultiplayer,
        section: SECTION_OF_ENGINE[entry.engine],
        needsIsolation: false,
      } satisfies Partial<GameEntry>);
      expect(game?.serverType).toBe(entry.serverType);
      expect(game?.version).toBeGreaterThanOrEqual(1);
      expect(game?.playUrl).toBe(`${GAMES_ORIGIN}/${entry.id}/${game?.version}/index.html`);
      // the files are in the games storage (GAMES_DIR, or the bucket), with precompressed
      // siblings for the scripts
      const prefix = `${entry.id}/${game?.version}/`;
      expect(await isStored(`${prefix}index.html`), entry.id).toBe(true);
      const files = await storedUnder(prefix);
      expect(
        files.some((file) => file.endsWith('.js.br')),
        entry.id,
      ).toBe(true);
      expect(
        files.some((file) => file.endsWith('.js.gz')),
        entry.id,
      ).toBe(true);
    }
  });

  it('is imported once, however many processes start, and restores missing files', async () => {
    const builds = async () =>
      (await app.deps.database.db.select().from(gameBuilds)).filter((build) =>
        GAME_CATALOGUE.some((entry) => entry.id === build.gameId),
      ).length;
    const before = await builds();
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'game-host-restore-'));
    try {
      const config = {
        ...app.deps.config,
        gamesHost: { ...app.deps.config.gamesHost, dir: emptyDir },
      };
      // what a crash left in .incoming long ago goes; a recent upload (another process) stays
      mkdirSync(path.join(emptyDir, '.incoming', 'abandoned'), { recursive: true });
      mkdirSync(path.join(emptyDir, '.incoming', 'receiving'), { recursive: true });
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
      utimesSync(path.join(emptyDir, '.incoming', 'abandoned'), twoDaysAgo, twoDaysAgo);
      // on PostgreSQL the second "process" has a pool of its own
      const other = process.env.DATABASE_URL ? await openTestDatabase() : app.deps.database;
      const start = (database: Database) =>
        createGameHost({
          config,
          database,
          bus: createLocalInvalidationBus(),
          demoDir: DEFAULT_GAMES_DIR,
        });
      const [first] = await Promise.all([start(app.deps.database), start(other)]).finally(
        () => other !== app.deps.database && other.close(),
      );
      expect(await builds()).toBe(before);
      expect(readdirSync(path.join(emptyDir, '.incoming'))).toEqual(['receiving']);
      for (const entry of GAME_CATALOGUE) {
        const version = first.catalogue.get(entry.id)?.game.liveVersion;
        expect(existsSync(path.join(emptyDir, entry.id, String(version), 'index.html'))).toBe(true);
      }
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });
});

describe('the first start', () => {
  // two imports of every demo game (each file compressed twice) and a restart: CPU-bound work
  it(
    'imports each demo game once when two processes start on an empty database together',
    {
      timeout: scaled(120_000),
    },
    async () => {
      const scratch = process.env.DATABASE_URL
        ? await createScratchDatabase(process.env.DATABASE_URL, 'test_game_seed')
        : undefined;
      const open = () =>
        scratch ? openDatabase({ databaseUrl: scratch.url }) : openTestDatabase();
      const first = await open();
      // PGlite is one process: both starts share it; PostgreSQL: two pools, two "processes"
      const second = scratch ? await open() : first;
      const dirs = [1, 2].map(() => mkdtempSync(path.join(tmpdir(), 'game-host-seed-')));
      try {
        const start = (database: Database, dir: string) =>
          createGameHost({
            config: { ...app.deps.config, gamesHost: { ...app.deps.config.gamesHost, dir } },
            database,
            bus: createLocalInvalidationBus(),
            demoDir: DEFAULT_GAMES_DIR,
          });
        const hosts = await Promise.all([
          start(first, dirs[0] ?? ''),
          start(second, dirs[1] ?? ''),
        ]);
        const rows = await first.db.select().from(gameBuilds);
        expect(rows.map((row) => `${row.gameId}/${row.version}`).sort()).toEqual(
          GAME_CATALOGUE.map((entry) => `${entry.id}/1`).sort(),
        );
        for (const host of hosts) {
          expect(host.catalogue.list().map((record) => record.game.id)).toEqual(
            GAME_CATALOGUE.map((entry) => entry.id),
          );
        }
        // a restart imports nothing more
        await start(first, dirs[0] ?? '');
        expect(await first.db.select().from(gameBuilds)).toHaveLength(rows.length);
      } finally {
        await first.close();
        if (second !== first) {
          await second.close();
        }
        await scratch?.drop();
        dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
      }
    },
  );
});

describe('a deleted demo import', () => {
  it('does not come back when the site starts again', async () => {
    // a database of its own: the built-in games of the shared one stay as they are
    const scratch = process.env.DATABASE_URL
      ? await createScratchDatabase(process.env.DATABASE_URL, 'test_game_deleted')
      : undefined;
    const database = scratch
      ? await openDatabase({ databaseUrl: scratch.url })
      : await openTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'game-host-deleted-'));
    const own = mkdtempSync(path.join(tmpdir(), 'game-host-own-'));
    try {
      const start = () =>
        createGameHost({
          config: { ...app.deps.config, gamesHost: { ...app.deps.config.gamesHost, dir } },
          database,
          bus: createLocalInvalidationBus(),
          demoDir: DEFAULT_GAMES_DIR,
        });
      const host = await start();
      const gameId = GAME_CATALOGUE[0]?.id ?? '';
      expect(host.catalogue.get(gameId)?.game.liveVersion).toBe(1);
      // the owner's own build goes live, then the imported demo version is deleted
      writeFileSync(path.join(own, 'index.html'), '<!DOCTYPE html><title>mine</title>');
      await host.publisher.publishFolder(gameId, own, { actor: null, activate: true });
      await host.publisher.deleteBuild(gameId, 1, null);
      expect(existsSync(path.join(dir, gameId, '1'))).toBe(false);
      const builds = () =>
        database.db
          .select({ version: gameBuilds.version, deletedAt: gameBuilds.deletedAt })
          .from(gameBuilds)
          .where(eq(gameBuilds.gameId, gameId));
      const before = await builds();

      const restarted = await start();
      expect(await builds()).toEqual(before);
      expect(restarted.catalogue.get(gameId)?.builds.map((build) => build.version)).toEqual([2]);
      expect(existsSync(path.join(dir, gameId, '1'))).toBe(false);
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('GET /api/games per role', () => {
  const pong = (games: GameEntry[]) => games.find((game) => game.id === 'Pong');
  const grantOf = (playUrl: string | null | undefined) =>
    /^http:\/\/games\.test\.localhost\/g\/([^/]+)\/Pong\/\d+\/index\.html$/.exec(
      playUrl ?? '',
    )?.[1];

  it('gives guests and plain users the subscriber game without a grant', async () => {
    const { client: user } = await signedInClient(app, 'user');
    for (const client of [app.client(), user]) {
      const game = pong(await listGames(client));
      expect(game?.playUrl).toBe(`${GAMES_ORIGIN}/Pong/${game?.version}/index.html`);
    }
  });

  it('gives subscribers and admins a grant for that game only', async () => {
    const { client: subscriber } = await signedInClient(app, 'subscriber');
    for (const client of [subscriber, admin]) {
      const grant = grantOf(pong(await listGames(client))?.playUrl);
      expect(grant).toBeDefined();
      expect(app.deps.gameHost.grants.verify(grant ?? '', 'Pong')).toBe(true);
      expect(app.deps.gameHost.grants.verify(grant ?? '', 'WolfScape')).toBe(false);
    }
    // public games never carry a grant
    const wolf = (await listGames(subscriber)).find((game) => game.id === 'WolfScape');
    expect(wolf?.playUrl).toMatch(/^http:\/\/games\.test\.localhost\/WolfScape\/\d+\/index\.html$/);
  });

  it('lists only published games', async () => {
    const id = await buildGame(admin);
    expect((await uploadBuild(admin, id, await plainBuild('hidden'))).status).toBe(201);
    expect((await listGames(app.client())).some((game) => game.id === id)).toBe(false);
    await admin.request('PATCH', `/api/admin/games/${id}`, { published: true });
    expect((await listGames(app.client())).some((game) => game.id === id)).toBe(true);
    await admin.request('PATCH', `/api/admin/games/${id}`, { published: false });
    expect((await listGames(app.client())).some((game) => game.id === id)).toBe(false);
    // the games origin no longer serves it either
    expect(app.deps.gameHost.catalogue.find(id)).toMatchObject({ liveVersion: null, versions: [] });
  });
});

describe('engine detection', () => {
  for (const [name, fixture] of Object.entries(ENGINE_FIXTURES)) {
    it(`finds ${name}: ${fixture.engine}, start page ${fixture.entry}, threads ${fixture.needsThreads}`, async () => {
      const id = await buildGame(admin, { access: 'public' });
      const response = await uploadBuild(admin, id, await makeZip(fixture.files));
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const { build, game } = response.body as GameBuildResponse;
      expect(build).toMatchObject({
        version: 1,
        engine: fixture.engine,
        entry: fixture.entry,
        needsThreads: fixture.needsThreads,
        files: Object.keys(fixture.files).length,
        isLive: true,
        uploadedBy: adminName,
      });
      expect(build.compressedBytes).toBeLessThan(build.bytes);
      expect(game.needsIsolation).toBe(fixture.needsThreads);
      expect(game.playUrl).toBe(`${GAMES_ORIGIN}/${id}/1/${fixture.entry}`);
      expect(app.deps.gameHost.catalogue.find(id)).toBeDefined();
    });
  }

  it('makes .br and .gz siblings for compressible files of 1 KB or more, and keeps prebuilt ones', async () => {
    const id = await buildGame(admin);
    const response = await uploadBuild(
      admin,
      id,
      await makeZip(ENGINE_FIXTURES.unity?.files ?? {}),
    );
    expect(response.status).toBe(201);
    expect((await storedUnder(`${id}/1/`)).sort()).toEqual(
      [
        'index.html',
        'Build/WebGL.loader.js',
        'Build/WebGL.loader.js.br',
        'Build/WebGL.loader.js.gz',
        'Build/WebGL.data.br',
        'Build/WebGL.framework.js.br',
        'Build/WebGL.wasm.br',
      ].sort(),
    );
  });
});

describe('versions', () => {
  it('makes every upload a new version, keeps the live one with activate=false, rolls back', async () => {
    const id = await buildPublishedGame(admin);
    const second = await uploadBuild(admin, id, await plainBuild('v2'));
    expect(second.status).toBe(201);
    expect((second.body as GameBuildResponse).build).toMatchObject({ version: 2, isLive: true });
    const third = await uploadBuild(admin, id, await plainBuild('v3'), { activate: false });
    expect(third.status).toBe(201);
    expect((third.body as GameBuildResponse).build).toMatchObject({ version: 3, isLive: false });
    expect((third.body as GameBuildResponse).game.version).toBe(2);
    const card = async () => (await listGames(app.client())).find((game) => game.id === id);
    expect((await card())?.playUrl).toBe(`${GAMES_ORIGIN}/${id}/2/index.html`);

    // roll back to version 1: one call, and the old files are still there
    const rollback = await admin.post<GameBuildResponse>(
      `/api/admin/games/${id}/builds/1/activate`,
    );
    expect(rollback.status).toBe(200);
    expect(rollback.body.build).toMatchObject({ version: 1, isLive: true });
    expect((await card())?.playUrl).toBe(`${GAMES_ORIGIN}/${id}/1/index.html`);
    for (const version of [1, 2, 3]) {
      expect(await isStored(`${id}/${version}/index.html`)).toBe(true);
    }
    // the games origin serves the live version and the one a player may still be in
    expect(app.deps.gameHost.catalogue.find(id)).toMatchObject({
      liveVersion: 1,
      versions: [1, 2],
    });

    // a version never live goes live on request
    const activate = await admin.post<GameBuildResponse>(
      `/api/admin/games/${id}/builds/3/activate`,
    );
    expect(activate.status).toBe(200);
    expect((await adminGame(id))?.builds.map((build) => [build.version, build.isLive])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect((await admin.post(`/api/admin/games/${id}/builds/9/activate`)).status).toBe(404);
    expect((await admin.post(`/api/admin/games/${id}/builds/zero/activate`)).status).toBe(404);
  });

  it('deletes a version that is not live: files, serving and number go for good', async () => {
    const id = await buildPublishedGame(admin);
    expect((await uploadBuild(admin, id, await plainBuild('v2'))).status).toBe(201);
    const v1Url = `${app.gamesUrl}/${id}/1/index.html`;
    // version 1 was live a moment ago: a player may still be in it
    expect((await fetch(v1Url)).status).toBe(200);

    const live = await admin.delete<ErrorBody>(`/api/admin/games/${id}/builds/2`);
    expect(live.status).toBe(409);
    expect(live.body.error.message).toBe(
      'Version 2 is live: make another version live before deleting it',
    );

    expect((await admin.delete(`/api/admin/games/${id}/builds/1`)).status).toBe(204);
    expect(await storedUnder(`${id}/1/`)).toEqual([]);
    expect((await fetch(v1Url)).status).toBe(404);
    expect((await adminGame(id))?.builds.map((build) => build.version)).toEqual([2]);
    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${id}`);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'build-delete',
      actorUsername: adminName,
    });
    expect(audit.body.entries[0]?.detail).toMatch(/^Version 1 deleted \(.+\)$/);

    // gone: no rollback to it, no second delete, and the next upload does not take its number
    const again = await admin.delete<ErrorBody>(`/api/admin/games/${id}/builds/1`);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe(`Game ${id} has no version 1`);
    expect((await admin.post(`/api/admin/games/${id}/builds/1/activate`)).status).toBe(404);
    expect((await admin.delete(`/api/admin/games/${id}/builds/zero`)).status).toBe(404);
    const third = await uploadBuild(admin, id, await plainBuild('v3'), { activate: false });
    expect((third.body as GameBuildResponse).build.version).toBe(3);
    expect((await admin.delete(`/api/admin/games/${id}/builds/3`)).status).toBe(204);
    const fourth = await uploadBuild(admin, id, await plainBuild('v4'));
    expect((fourth.body as GameBuildResponse).build.version).toBe(4);
    expect(await (await fetch(`${app.gamesUrl}/${id}/4/index.html`)).text()).toContain('v4');
  });
});

describe('bad uploads', () => {
  let gameId: string;
  beforeAll(async () => {
    gameId = await buildPublishedGame(admin);
  });

  const many = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        index === 0 ? 'index.html' : `f${index}.txt`,
        'x',
      ]),
    );
  const cases: Array<[string, () => Promise<Buffer | string>, number, string]> = [
    ['not a zip', () => Promise.resolve('this is not a zip file'), 400, 'NOT_A_ZIP'],
    ['an empty body', () => Promise.resolve(''), 400, 'NOT_A_ZIP'],
    ['no start page', () => makeZip({ 'game.js': 'x', 'art/a.png': 'y' }), 400, 'NO_START_PAGE'],
    [
      'several start pages, none index.html',
      () => makeZip({ 'a.html': 'a', 'b.html': 'b' }),
      400,
      'NO_START_PAGE',
    ],
    [
      'a path that climbs out (../)',
      () =>
        makeZipWithRawName({ 'index.html': 'x', 'zz/evil.txt': 'x' }, 'zz/evil.txt', '../evil.txt'),
      400,
      'UNSAFE_PATH',
    ],
    [
      'a path that climbs out with backslashes',
      () =>
        makeZipWithRawName(
          { 'index.html': 'x', 'zz/evil.txt': 'x' },
          'zz/evil.txt',
          '..\\evil.txt',
        ),
      400,
      'UNSAFE_PATH',
    ],
    [
      'an absolute path',
      () =>
        makeZipWithRawName(
          { 'index.html': 'x', 'Xtmp/evil.txt': 'x' },
          'Xtmp/evil.txt',
          '/tmp/evil.txt',
        ),
      400,
      'UNSAFE_PATH',
    ],
    [
      'a drive-letter path',
      () =>
        makeZipWithRawName(
          { 'index.html': 'x', 'Xxtmp/evil.txt': 'x' },
          'Xxtmp/evil.txt',
          'C:tmp/evil.txt',
        ),
      400,
      'UNSAFE_PATH',
    ],
    [
      'a symbolic link',
      () => makeZip({ 'index.html': 'x', secrets: { symlinkTo: '/etc/passwd' } }),
      400,
      'SYMLINK',
    ],
    [
      'a zip bomb (ratio)',
      () => makeZip({ 'index.html': 'x', 'zeros.bin': Buffer.alloc(4 * 1024 * 1024) }),
      400,
      'ZIP_BOMB',
    ],
    [
      'a zip bomb (total unpacked size)',
      () => makeZip({ 'index.html': 'x', 'big.txt': lowEntropyText(3 * 1024 * 1024) }),
      400,
      'ZIP_BOMB',
    ],
    [
      'an entry whose bytes do not match its CRC-32',
      async () => {
        // stored, not deflated: the file's bytes are in the zip as written, one of them changed
        const zip = await makeZip(
          { 'index.html': '<!DOCTYPE html><title>checked</title>', 'game.js': someScript('crc') },
          { compress: false },
        );
        const at = zip.indexOf('<title>checked');
        zip.write('<title>CHECKED', at, 'latin1');
        return zip;
      },
      400,
      'BAD_ZIP',
    ],
    ['too many files', () => makeZip(many(51)), 400, 'TOO_MANY_FILES'],
    [
      'over the size limit',
      () => makeZip({ 'index.html': 'x', 'noise.bin': randomBytes(1100 * 1024) }),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];

  for (const [name, body, status, code] of cases) {
    it(`refuses ${name} with ${status} ${code} and changes nothing live`, async () => {
      const before = await adminGame(gameId);
      const response = await uploadBuild(admin, gameId, await body());
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ error: { code } });
      expect(
        (response.body as { error: { message: string } }).error.message.length,
      ).toBeGreaterThan(10);
      const after = await adminGame(gameId);
      expect(after?.version).toBe(before?.version);
      expect(after?.builds).toEqual(before?.builds);
      expect(after?.playUrl).toBe(before?.playUrl);
      // nothing left behind in the upload area, nothing written outside the build folders
      expect(readdirSync(path.join(gamesDir, '.incoming'))).toEqual([]);
      expect(existsSync(path.join(gamesDir, 'evil.txt'))).toBe(false);
      expect(existsSync('/tmp/evil.txt')).toBe(false);
    });
  }

  it('refuses an upload over the limit sent without a length (chunked)', async () => {
    const noise = randomBytes(1100 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < noise.length; offset += 64 * 1024) {
          controller.enqueue(noise.subarray(offset, offset + 64 * 1024));
        }
        controller.close();
      },
    });
    const response = await fetch(`${app.url}/api/admin/games/${gameId}/build`, {
      method: 'PUT',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'application/zip', cookie: admin.cookieHeader },
    }).catch(() => undefined);
    // the answer is a 413, unless the connection closed before the client read it
    if (response) {
      expect(response.status).toBe(413);
    }
    expect((await adminGame(gameId))?.builds).toHaveLength(1);
  });

  it('refuses a body that is not sent as a zip with 415', async () => {
    const response = await uploadBuild(admin, gameId, await plainBuild('json'), {
      contentType: 'application/json',
    });
    expect(response.status).toBe(415);
  });

  it('refuses an upload from another site', async () => {
    const response = await uploadBuild(admin, gameId, await plainBuild('evil'), {
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });

  it('answers 404 for an unknown game before reading the upload', async () => {
    const response = await uploadBuild(admin, 'NoSuchGame123', await plainBuild('x'));
    expect(response.status).toBe(404);
  });
});

describe('who may publish', () => {
  it('refuses guests (401) and non-admins (403) on every admin route', async () => {
    const id = await buildPublishedGame(admin);
    const { client: user } = await signedInClient(app, 'user');
    const { client: subscriber } = await signedInClient(app, 'subscriber');
    for (const [client, status] of [
      [app.client(), 401],
      [user, 403],
      [subscriber, 403],
    ] as const) {
      expect((await client.get('/api/admin/games')).status).toBe(status);
      expect((await client.post('/api/admin/games', { id: uniqueGameId() })).status).toBe(status);
      expect(
        (await client.request('PATCH', `/api/admin/games/${id}`, { published: false })).status,
      ).toBe(status);
      expect((await client.delete(`/api/admin/games/${id}`)).status).toBe(status);
      expect((await client.post(`/api/admin/games/${id}/builds/1/activate`)).status).toBe(status);
      expect((await client.delete(`/api/admin/games/${id}/builds/1`)).status).toBe(status);
      expect((await client.get('/api/admin/games/audit')).status).toBe(status);
      expect((await client.get('/api/admin/tokens')).status).toBe(status);
      expect((await client.post('/api/admin/tokens', { name: 'x' })).status).toBe(status);
      expect((await uploadBuild(client, id, await plainBuild('x'))).status).toBe(status);
    }
    expect((await adminGame(id))?.builds).toHaveLength(1);
    expect((await adminGame(id))?.published).toBe(true);
  });

  it('takes an admin API token (shown once, stored as a hash) for the games admin API', async () => {
    const created = await admin.post<CreateAdminTokenResponse>('/api/admin/tokens', {
      name: 'build script',
    });
    expect(created.status).toBe(201);
    const { token, id: tokenId } = created.body;
    expect(token).toMatch(/^pgh_/);
    const listed = await admin.get<{ tokens: Array<Record<string, unknown>> }>('/api/admin/tokens');
    const row = listed.body.tokens.find((candidate) => candidate.id === tokenId);
    expect(row).toMatchObject({ name: 'build script', lastUsedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const [stored] = await app.deps.database.db
      .select()
      .from(adminTokens)
      .where(eq(adminTokens.id, tokenId));
    expect(stored?.tokenHash).not.toContain(token.slice(4));

    const id = await buildGame(admin);
    const response = await uploadBuild(app.client(), id, await plainBuild('token'), { token });
    expect(response.status).toBe(201);
    expect((response.body as GameBuildResponse).build.uploadedBy).toBe(adminName);
    const bearer = { authorization: `Bearer ${token}` };
    const patched = await app
      .client()
      .request('PATCH', `/api/admin/games/${id}`, { published: true }, bearer);
    expect(patched.status).toBe(200);
    // a token cannot manage tokens; a wrong token is refused even beside an admin's session
    expect((await app.client().request('GET', '/api/admin/tokens', undefined, bearer)).status).toBe(
      401,
    );
    expect(
      (
        await admin.request('GET', '/api/admin/games', undefined, {
          authorization: 'Bearer pgh_wrong',
        })
      ).status,
    ).toBe(401);
    expect(
      (await uploadBuild(app.client(), id, await plainBuild('x'), { token: `${token}x` })).status,
    ).toBe(401);

    // deleted: refused
    expect((await admin.delete(`/api/admin/tokens/${tokenId}`)).status).toBe(204);
    expect((await uploadBuild(app.client(), id, await plainBuild('x'), { token })).status).toBe(
      401,
    );
    expect((await admin.delete(`/api/admin/tokens/${tokenId}`)).status).toBe(404);
  });

  it('ends a token when its admin is no longer an admin', async () => {
    const other = await signedInClient(app, 'admin');
    const created = await other.client.post<CreateAdminTokenResponse>('/api/admin/tokens', {
      name: 'ci',
    });
    const id = await buildGame(admin);
    expect(
      (await uploadBuild(app.client(), id, await plainBuild('a'), { token: created.body.token }))
        .status,
    ).toBe(201);
    await app.deps.users.setRole(other.id, 'user');
    expect(
      (await uploadBuild(app.client(), id, await plainBuild('b'), { token: created.body.token }))
        .status,
    ).toBe(401);
  });
});

describe("a demoted admin's tokens", () => {
  it('are revoked for good: promoting the user again brings none back', async () => {
    const other = await signedInClient(app, 'admin');
    const created = await other.client.post<CreateAdminTokenResponse>('/api/admin/tokens', {
      name: 'laptop',
    });
    expect(created.status).toBe(201);
    const { token } = created.body;
    const id = await buildGame(admin);
    const publish = async (label: string) =>
      (await uploadBuild(app.client(), id, await plainBuild(label), { token })).status;
    expect(await publish('a')).toBe(201);

    const setRole = (role: string) => admin.post('/api/update-role', { userId: other.id, role });
    expect((await setRole('user')).status).toBe(200);
    expect(await publish('b')).toBe(401);
    expect((await setRole('admin')).status).toBe(200);
    expect(await publish('c')).toBe(401);
    // gone from the list, and the audit log says why
    const listed = await admin.get<{ tokens: Array<{ id: string }> }>('/api/admin/tokens');
    expect(listed.body.tokens.map((row) => row.id)).not.toContain(created.body.id);
    const audit = await admin.get<{ entries: Array<{ action: string; detail: string }> }>(
      '/api/admin/games/audit',
    );
    expect(JSON.stringify(audit.body)).toContain(
      `API token 'laptop' deleted (${other.username} is no longer an admin)`,
    );
  });
});

describe('the admin catalogue', () => {
  it('adds, edits, publishes and deletes a game; built-in games cannot be deleted', async () => {
    const id = await buildGame(admin, { section: 'godot', access: 'subscriber' });
    const add = async (gameId: string) =>
      (
        await admin.post('/api/admin/games', {
          id: gameId,
          title: 'Another',
          description: '',
          instructions: '',
          section: 'html5',
          access: 'public',
        })
      ).status;
    // taken (in any case), outside the id's characters, or reserved
    expect(await add(id)).toBe(409);
    expect(await add(id.toLowerCase())).toBe(409);
    expect(await add('../x')).toBe(400);
    expect(await add('g')).toBe(400);
    // no build yet: cannot be published
    const early = await admin.request('PATCH', `/api/admin/games/${id}`, { published: true });
    expect(early.status).toBe(409);
    expect((await admin.request('PATCH', `/api/admin/games/${id}`, { title: '' })).status).toBe(
      400,
    );

    expect((await uploadBuild(admin, id, await plainBuild('v1'))).status).toBe(201);
    const patched = await admin.request<AdminGameResponse>('PATCH', `/api/admin/games/${id}`, {
      title: 'Renamed',
      description: 'New words',
      instructions: 'Arrows.',
      section: 'html5',
      access: 'public',
      order: 5,
      published: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.game).toMatchObject({
      title: 'Renamed',
      description: 'New words',
      instructions: 'Arrows.',
      section: 'html5',
      access: 'public',
      order: 5,
      published: true,
      isBuiltIn: false,
    });
    const card = (await listGames(app.client())).find((game) => game.id === id);
    expect(card).toMatchObject({ title: 'Renamed', access: 'public', version: 1 });

    expect((await admin.delete('/api/admin/games/Pong')).status).toBe(409);
    expect((await admin.delete(`/api/admin/games/${id}`)).status).toBe(204);
    expect(await adminGame(id)).toBeUndefined();
    expect(await storedUnder(`${id}/`)).toEqual([]);
    expect((await admin.delete(`/api/admin/games/${id}`)).status).toBe(404);
    expect((await admin.request('PATCH', `/api/admin/games/${id}`, { title: 'x' })).status).toBe(
      404,
    );
  });

  it("gives a game added again under a deleted one's id the versions after the old ones", async () => {
    const id = await buildPublishedGame(admin);
    expect((await uploadBuild(admin, id, await plainBuild('v2'))).status).toBe(201);
    expect((await admin.delete(`/api/admin/games/${id}`)).status).toBe(204);
    // browsers may hold /<id>/1/ and /<id>/2/ as immutable: the new game never serves under them
    expect(await buildGame(admin, { id })).toBe(id);
    const again = await uploadBuild(admin, id, await plainBuild('new'));
    expect(again.status).toBe(201);
    expect((again.body as GameBuildResponse).build).toMatchObject({ version: 3, isLive: true });
    expect((await admin.delete(`/api/admin/games/${id}`)).status).toBe(204);
    expect(await buildGame(admin, { id })).toBe(id);
    const third = await uploadBuild(admin, id, await plainBuild('third'));
    expect((third.body as GameBuildResponse).build).toMatchObject({ version: 4 });
  });

  it("names an owner's game by its title in a player's records, renamed as the admin renames it", async () => {
    const id = await buildPublishedGame(admin, { title: 'Moon Lander' });
    const player = await signedInClient(app, 'user');
    expect((await player.client.post(`/api/games/${id}/session`, { action: 'start' })).status).toBe(
      204,
    );
    expect(
      (await player.client.post(`/api/games/${id}/achievements`, { name: 'Landed' })).status,
    ).toBe(201);
    const titles = async () => {
      const profile = Profile.parse((await player.client.get('/api/user/profile')).body);
      const mine = MyGamesResponse.parse((await player.client.get('/api/me/games')).body);
      const detail = UserDetail.parse((await admin.get(`/api/users/${player.id}`)).body);
      return [
        profile.games.find((game) => game.game_id === id)?.game_name,
        profile.achievements.find((achievement) => achievement.game_id === id)?.game_name,
        mine.games.find((game) => game.gameId === id)?.title,
        detail.games.find((game) => game.game_id === id)?.game_name,
      ];
    };
    expect(await titles()).toEqual(Array(4).fill('Moon Lander'));
    await admin.request('PATCH', `/api/admin/games/${id}`, { title: 'Moon Lander II' });
    expect(await titles()).toEqual(Array(4).fill('Moon Lander II'));
  });

  it('takes a PNG, JPEG or WebP thumbnail, checked by its bytes', async () => {
    const id = await buildGame(admin);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(200),
    ]);
    const put = (body: Buffer, type: string) =>
      fetch(`${app.url}/api/admin/games/${id}/thumbnail`, {
        method: 'PUT',
        body,
        headers: { 'content-type': type, cookie: admin.cookieHeader },
      });
    const response = await put(png, 'image/png');
    expect(response.status).toBe(200);
    const { game } = (await response.json()) as AdminGameResponse;
    expect(game.thumbnail).toMatch(new RegExp(`^${GAMES_ORIGIN}/${id}/thumbnail\\.png\\?v=`));
    expect(await isStored(`${id}/thumbnail.png`)).toBe(true);

    expect((await put(Buffer.from('<svg onload=alert(1)>'), 'image/png')).status).toBe(400);
    expect((await put(png, 'image/webp')).status).toBe(400);
    expect((await put(png, 'image/svg+xml')).status).toBe(415);
    expect(
      (await put(Buffer.concat([png, randomBytes(3 * 1024 * 1024)]), 'image/png')).status,
    ).toBe(413);

    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(100)]);
    expect((await put(jpeg, 'image/jpeg')).status).toBe(200);
    expect(await isStored(`${id}/thumbnail.jpg`)).toBe(true);
    expect(await isStored(`${id}/thumbnail.png`)).toBe(false);
  });

  it('records every change in the audit log', async () => {
    const id = await buildGame(admin);
    expect((await uploadBuild(admin, id, await plainBuild('v1'))).status).toBe(201);
    expect((await uploadBuild(admin, id, await plainBuild('v2'), { activate: false })).status).toBe(
      201,
    );
    await admin.post(`/api/admin/games/${id}/builds/2/activate`);
    await admin.request('PATCH', `/api/admin/games/${id}`, { published: true, title: 'Audited' });
    await fetch(`${app.url}/api/admin/games/${id}/thumbnail`, {
      method: 'PUT',
      body: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]),
      headers: { 'content-type': 'image/jpeg', cookie: admin.cookieHeader },
    });
    await admin.delete(`/api/admin/games/${id}`);
    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.entries.map((entry) => entry.action).reverse()).toEqual([
      'game-create',
      'build-upload',
      'build-upload',
      'build-activate',
      'game-update',
      'thumbnail-upload',
      'game-delete',
    ]);
    expect(audit.body.entries.every((entry) => entry.actorUsername === adminName)).toBe(true);
    const update = audit.body.entries.find((entry) => entry.action === 'game-update');
    // sentences, not raw values
    expect(update?.detail).toMatch(/^Renamed from '.+' to 'Audited'; Published$/);
    const uploads = audit.body.entries.filter((entry) => entry.action === 'build-upload');
    expect(uploads.map((entry) => entry.detail).sort()).toEqual([
      expect.stringMatching(/^Version 1 uploaded and made live \(html5, 2 files, .+\)$/),
      expect.stringMatching(/^Version 2 uploaded \(html5, 2 files, .+\)$/),
    ]);
    expect(audit.body.entries.find((entry) => entry.action === 'build-activate')?.detail).toBe(
      'Version 2 made live (was version 1)',
    );
    expect(audit.body.entries.find((entry) => entry.action === 'thumbnail-upload')?.detail).toBe(
      'Thumbnail replaced (8 bytes)',
    );

    const tokenName = `audited ${id}`;
    const token = await admin.post<CreateAdminTokenResponse>('/api/admin/tokens', {
      name: tokenName,
    });
    await admin.delete(`/api/admin/tokens/${token.body.id}`);
    const all = await admin.get<GameAuditResponse>('/api/admin/games/audit');
    const tokenEntries = all.body.entries.filter((entry) =>
      entry.detail.startsWith(`API token '${tokenName}' `),
    );
    expect(tokenEntries.map((entry) => [entry.action, entry.detail]).sort()).toEqual([
      ['token-create', `API token '${tokenName}' created`],
      ['token-delete', `API token '${tokenName}' deleted`],
    ]);
  });
});

describe('npm run games:publish', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/games-publish.ts', ...args],
        {
          cwd: SERVER_ROOT,
          env: { PATH: process.env.PATH ?? '', ...env },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('streams a zip with a token and prints the version and what was detected', async () => {
    const token = (await admin.post<CreateAdminTokenResponse>('/api/admin/tokens', { name: 'cli' }))
      .body.token;
    const id = await buildGame(admin);
    const dir = mkdtempSync(path.join(tmpdir(), 'games-publish-'));
    try {
      writeFileSync(
        path.join(dir, 'build.zip'),
        await makeZip(ENGINE_FIXTURES.godot4Threads?.files ?? {}),
      );
      // the zip's path is relative to where npm was started (INIT_CWD)
      const published = await run([id, 'build.zip', '--site', app.url], {
        GAMES_PUBLISH_TOKEN: token,
        INIT_CWD: dir,
      });
      expect(published.stderr).toBe('');
      expect(published.code).toBe(0);
      expect(published.stdout).toContain(`Published ${id} version 1 (live)`);
      expect(published.stdout).toContain('engine:     godot4, needs threads');
      expect(published.stdout).toContain('start page: index.html');
      // the sizes read as the admin page shows them (one formatBytes)
      const live = (await adminGame(id))?.builds[0];
      expect(published.stdout).toContain(
        `files:      ${live?.files}, ${formatBytes(live?.bytes ?? 0)} (${formatBytes(live?.compressedBytes ?? 0)} compressed)`,
      );
      expect(published.stdout).toContain('not shown:  the game is unpublished');

      const second = await run(
        [id, path.join(dir, 'build.zip'), '--no-activate', `--token=${token}`],
        {
          SITE_URL: app.url,
        },
      );
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`Published ${id} version 2 (uploaded, not live)`);
      expect((await adminGame(id))?.version).toBe(1);

      writeFileSync(path.join(dir, 'bad.zip'), 'not a zip');
      const refused = await run([id, path.join(dir, 'bad.zip')], {
        SITE_URL: app.url,
        GAMES_PUBLISH_TOKEN: token,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The site refused the build (400): The upload is not a zip');

      const noToken = await run([id, path.join(dir, 'build.zip')], { SITE_URL: app.url });
      expect(noToken.code).toBe(1);
      expect(noToken.stderr).toContain('No token: set GAMES_PUBLISH_TOKEN');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for the token on a terminal without echoing it', async () => {
    const token = (await admin.post<CreateAdminTokenResponse>('/api/admin/tokens', { name: 'tty' }))
      .body.token;
    const id = await buildGame(admin);
    const dir = mkdtempSync(path.join(tmpdir(), 'games-publish-tty-'));
    try {
      const zip = path.join(dir, 'build.zip');
      writeFileSync(zip, await plainBuild('typed token'));
      // util-linux's script gives the command a pseudo-terminal; everything the terminal shows
      // (the prompt, any echo, the summary) comes back on its stdout
      const command = [process.execPath, '--import', 'tsx', 'src/cli/games-publish.ts', id, zip]
        .map((arg) => `'${arg}'`)
        .join(' ');
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        cwd: SERVER_ROOT,
        env: { PATH: process.env.PATH ?? '', SITE_URL: app.url, TERM: 'dumb' },
      });
      let screen = '';
      let typed = false;
      const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        if (!typed && screen.includes('Admin API token (not shown): ')) {
          typed = true;
          child.stdin.write(`${token}\r`);
        }
      });
      expect(await exit).toBe(0);
      expect(screen).toContain(`Published ${id} version 1 (live)`);
      expect(screen).not.toContain(token);
      expect(screen).not.toContain(token.slice(0, 8));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('published builds on the games origin', () => {
  const served = (playUrl: string | null | undefined, headers: Record<string, string> = {}) =>
    fetch((playUrl ?? '').replace(GAMES_ORIGIN, app.gamesUrl), { headers });

  it('serves the live build, the one before it after a swap, and nothing once unpublished', async () => {
    const id = await buildPublishedGame(admin);
    const first = (await listGames(app.client())).find((game) => game.id === id);
    const v1 = await served(first?.playUrl);
    expect(v1.status).toBe(200);
    expect(await v1.text()).toContain('v1');
    const script = await served(first?.playUrl?.replace('index.html', 'game.js'), {
      'accept-encoding': 'br',
    });
    expect(script.headers.get('content-encoding')).toBe('br');

    expect((await uploadBuild(admin, id, await plainBuild('v2'))).status).toBe(201);
    const second = (await listGames(app.client())).find((game) => game.id === id);
    expect(await (await served(second?.playUrl)).text()).toContain('v2');
    // a player who started version 1 keeps it
    expect((await served(first?.playUrl)).status).toBe(200);

    await admin.request('PATCH', `/api/admin/games/${id}`, { published: false });
    expect((await served(second?.playUrl)).status).toBe(404);
  });

  it('serves a subscriber game only with the grant in a subscriber’s play URL', async () => {
    const id = await buildPublishedGame(admin, { access: 'subscriber' });
    const guestCard = (await listGames(app.client())).find((game) => game.id === id);
    expect((await served(guestCard?.playUrl)).status).toBe(403);
    const { client: subscriber } = await signedInClient(app, 'subscriber');
    const card = (await listGames(subscriber)).find((game) => game.id === id);
    expect(card?.playUrl).toContain('/g/');
    expect((await served(card?.playUrl)).status).toBe(200);
    // the seeded demo of Pong too
    const pong = (await listGames(subscriber)).find((game) => game.id === 'Pong');
    const response = await served(pong?.playUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('pong.js');
  });
});

describe('an uploaded game in the SDK records and game clicks', () => {
  it('records play for a published game, and nothing for an unpublished one', async () => {
    const id = await buildPublishedGame(admin, { access: 'subscriber' });
    const { client: subscriber } = await signedInClient(app, 'subscriber');
    const { client: user } = await signedInClient(app, 'user');
    const saved = await subscriber.request('PUT', `/api/games/${id}/save`, { data: { level: 2 } });
    expect(saved.status).toBe(200);
    expect((await subscriber.get(`/api/games/${id}/save`)).body).toMatchObject({
      data: { level: 2 },
    });
    expect((await user.request('PUT', `/api/games/${id}/save`, { data: {} })).status).toBe(403);
    expect((await subscriber.post('/api/track-game-click', { gameId: id })).status).toBe(200);

    await admin.request('PATCH', `/api/admin/games/${id}`, { published: false });
    expect((await subscriber.get(`/api/games/${id}/save`)).status).toBe(404);
    expect((await subscriber.post('/api/track-game-click', { gameId: id })).status).toBe(400);
  });
});
