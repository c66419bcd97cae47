import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GameBuild } from '@portfolio/types/game-host';

import { loadConfig } from '../../config.js';
import { ANSWER_WASM, engineExport, zipExport } from '../../test/engine-exports.js';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildGame, buildGameBuild, publishGame, signedInClient } from '../../test/factories.js';
import { REAL_EXPORT_KINDS, realExport } from '../../test/real-exports.js';
import { gamesContentSecurityPolicy } from './games-server.js';
import { isLeftOut, listLeftOut } from './detect.js';

/*
 * Real engine exports as uploaded: each fixture shaped like a real public export is
 * published through the admin API of the real app, then read back from the games origin as a
 * browser would read it. The browser half (the games run in Chromium) is
 * e2e/tests/real-exports.spec.ts.
 */

let app: TestApp;
let admin: TestClient;
let gamesDir: string;

beforeAll(async () => {
  gamesDir = mkdtempSync(path.join(tmpdir(), 'real-exports-'));
  const defaults = loadConfig({ SESSION_SECRET: 'x'.repeat(32), DATA_DIR: gamesDir });
  app = await startTestApp({ gamesHost: { ...defaults.gamesHost, port: 0, dir: gamesDir } });
  admin = (await signedInClient(app, 'admin')).client;
});

afterAll(async () => {
  await app?.stop();
  rmSync(gamesDir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is the bytes on the wire (fetch would undo a Content-Encoding). */
function raw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
let counter = 0;

/** Adds a public game, publishes `files` as its build; answers its id and the build. */
async function publish(files: Record<string, Buffer>): Promise<{ id: string; build: GameBuild }> {
  const id = await buildGame(admin, { id: `Real${Date.now().toString(36)}${counter++}` });
  const build = await buildGameBuild(admin, id, zipExport(files));
  await publishGame(admin, id);
  return { id, build };
}

const fileUrl = (id: string, build: GameBuild, file: string) =>
  `${app.gamesUrl}/${id}/${build.version}/${file}`;

describe('what the host detects in real exports', () => {
  for (const kind of REAL_EXPORT_KINDS) {
    it(`${kind}: engine, threads, start page and the files left out`, async () => {
      const fixture = realExport(kind);
      const { build } = await publish(fixture.files);
      expect({
        engine: build.engine,
        needsThreads: build.needsThreads,
        entry: build.entry,
        leftOut: build.leftOut,
      }).toEqual({
        engine: fixture.engine,
        needsThreads: fixture.needsThreads,
        entry: fixture.entry,
        leftOut: fixture.leftOut,
      });
    });
  }

  it('a Godot 4.3+ export is threaded only when its page says so (or it has a worker)', async () => {
    // the existing fixtures carry ensureCrossOriginIsolationHeaders in both forms
    expect((await publish(engineExport('godot4').files)).build).toMatchObject({
      engine: 'godot4',
      needsThreads: false,
    });
    expect((await publish(engineExport('godot4-threads').files)).build).toMatchObject({
      engine: 'godot4',
      needsThreads: true,
    });
    // a custom page without GODOT_THREADS_ENABLED: the engine script says whether it has threads
    const custom = realExport('godot43-cdn').files;
    const threaded = {
      ...custom,
      'index.js': Buffer.concat([
        Buffer.from('var ENVIRONMENT_IS_PTHREAD = typeof importScripts == "function";\n'),
        custom['index.js'] ?? Buffer.alloc(0),
      ]),
    };
    expect((await publish(threaded)).build).toMatchObject({ engine: 'godot4', needsThreads: true });
  });
});

describe('files no browser needs', () => {
  it('leaves a stray Game.exe, DLLs and a Mac’s strays out of the build, and lists them', async () => {
    const fixture = realExport('gamemaker-exe');
    const { id, build } = await publish(fixture.files);
    expect(build.leftOut).toEqual(fixture.leftOut);
    // only the game's own files are counted, stored and served
    expect(build.files).toBe(3);
    // what the games storage holds for the version (a folder here, a bucket with TEST_STORAGE=s3)
    const prefix = `${id}/${build.version}/`;
    const stored = (await app.deps.gameHost.storage.list(prefix)).map((info) =>
      info.key.slice(prefix.length),
    );
    expect(stored.filter((file) => !/\.(br|gz)$/.test(file)).sort()).toEqual([
      'html5game/Game.js',
      'html5game/Game_texture_0.png',
      'index.html',
    ]);
    expect((await raw(fileUrl(id, build, 'Game.exe'))).status).toBe(404);
    expect((await raw(fileUrl(id, build, 'index.html'))).status).toBe(200);
    // the admin's list of versions says so too
    const games = await admin.get<{ games: { id: string; builds: GameBuild[] }[] }>(
      '/api/admin/games',
    );
    const listed = games.body.games.find((game) => game.id === id)?.builds[0];
    expect(listed?.leftOut).toEqual(fixture.leftOut);
    const audit = await admin.get<{ entries: { action: string; detail: string }[] }>(
      `/api/admin/games/audit?gameId=${id}`,
    );
    expect(audit.body.entries.find((entry) => entry.action === 'build-upload')?.detail).toContain(
      'left out .DS_Store D3DX9_43.dll Game.exe __MACOSX/ html5game/.DS_Store)',
    );
  });

  it('names a left-out folder once and keeps files that only look alike', () => {
    expect(
      listLeftOut([
        'Game.app/Contents/MacOS/Game',
        'Game.app/Contents/Info.plist',
        'Win/UnityPlayer.dll',
        'Win/Game_Data/Managed/Assembly.pdb',
        'linux/libgame.so',
        'img/._sprite.png',
        'Thumbs.db',
        'index.html',
      ]),
    ).toEqual([
      'Game.app/',
      'Thumbs.db',
      'Win/Game_Data/Managed/Assembly.pdb',
      'Win/UnityPlayer.dll',
      'img/._sprite.png',
      'linux/libgame.so',
    ]);
    for (const kept of ['index.html', 'exe/game.js', 'app/main.js', 'data.sol', 'dllist.json']) {
      expect(isLeftOut(kept), kept).toBe(false);
    }
  });
});

describe("a build's own compressed files", () => {
  it('serves a Godot 3 CI build’s index.wasm.gz as the very bytes, without Content-Encoding', async () => {
    const fixture = realExport('godot32-gz');
    const { id, build } = await publish(fixture.files);
    for (const file of ['index.wasm.gz', 'index.pck.gz']) {
      const response = await raw(fileUrl(id, build, file), BROWSER_ENCODINGS);
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding'], file).toBeUndefined();
      expect(response.headers['content-type']).toBe('application/gzip');
      expect(response.body.equals(fixture.files[file] ?? Buffer.alloc(0)), file).toBe(true);
    }
    expect(gunzipSync((await raw(fileUrl(id, build, 'index.wasm.gz'))).body)).toEqual(ANSWER_WASM);
  });

  it('serves Unity 2017–2019 .unityweb files as their bytes, for UnityLoader to unpack', async () => {
    const fixture = realExport('unity2018');
    const { id, build } = await publish(fixture.files);
    const file = 'Build/WebGL.wasm.code.unityweb';
    const response = await raw(fileUrl(id, build, file), BROWSER_ENCODINGS);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.equals(fixture.files[file] ?? Buffer.alloc(0))).toBe(true);
  });

  it('serves a Unity 2020+ Build/*.gz|br with Content-Encoding and the uncompressed type', async () => {
    const fixture = engineExport('unity');
    const { id, build } = await publish(fixture.files);
    const wasm = await raw(fileUrl(id, build, 'Build/fixture.wasm.br'), BROWSER_ENCODINGS);
    expect(wasm.headers['content-encoding']).toBe('br');
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.headers.vary).toBe('Accept-Encoding');
    const data = await raw(fileUrl(id, build, 'Build/fixture.data.gz'), BROWSER_ENCODINGS);
    expect(data.headers['content-encoding']).toBe('gzip');
    expect(data.headers['content-type']).toBe('application/octet-stream');
    expect(gunzipSync(data.body).toString()).toContain('UnityFS fixture data');
  });

  it('still serves siblings the host made by Accept-Encoding', async () => {
    const fixture = realExport('godot32-gz');
    const { id, build } = await publish(fixture.files);
    const script = await raw(fileUrl(id, build, 'index.js'), BROWSER_ENCODINGS);
    expect(script.headers['content-encoding']).toBe('br');
    const identity = await raw(fileUrl(id, build, 'index.js'));
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(fixture.files['index.js'] ?? Buffer.alloc(0))).toBe(true);
  });
});

describe("the games origin's CSP", () => {
  it('lets games load libraries from https: and reach https:/wss:, and only the site frame them', async () => {
    const { id, build } = await publish(realExport('phaser2-cdn').files);
    const response = await raw(fileUrl(id, build, 'index.html'));
    const csp = String(response.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name = '', ...sources] = part.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    for (const name of [
      'script-src',
      'style-src',
      'img-src',
      'media-src',
      'font-src',
      'worker-src',
    ]) {
      expect(directives.get(name), name).toContain('https:');
    }
    expect(directives.get('script-src')).toEqual(
      expect.arrayContaining(["'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", 'blob:']),
    );
    expect(directives.get('connect-src')).toEqual(expect.arrayContaining(['https:', 'wss:']));
    // what stays closed: framing by anyone but the site, plugins, <base>; no http: sources
    const site = new URL(app.url).port;
    expect(directives.get('frame-ancestors')).toEqual([
      `http://127.0.0.1:${site}`,
      `http://localhost:${site}`,
    ]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(csp).not.toMatch(/(^|\s)(http:|\*)(\s|;|$)/);
    expect(gamesContentSecurityPolicy(['https://example.com'])).toContain(
      'frame-ancestors https://example.com;',
    );
  });

  it("leaves the site's own CSP as strict as it was", async () => {
    const response = await fetch(`${app.url}/api/games`);
    const csp = response.headers.get('content-security-policy') ?? '';
    const scripts = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1]?.split(/\s+/) ?? [];
    expect(scripts).toContain("'self'");
    for (const loose of ['https:', "'unsafe-inline'", "'unsafe-eval'"]) {
      expect(scripts).not.toContain(loose);
    }
  });
});
