import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../config.js';
import {
  ANSWER_WASM,
  engineExport,
  withPrecompressedSiblings,
  writeExport,
} from '../../test/engine-exports.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { isTestStorageS3 } from '../../test/s3-server.js';
import { GRANT_FILES_SECONDS, GRANT_PAGE_SECONDS } from './grants.js';
import type { GameHostCatalogue, HostedGame } from './layout.js';

/*
 * The games origin over HTTP: the real app on both ports, fixture exports laid out on
 * disk as the publisher leaves them, a catalogue saying what is live.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request sent exactly as written (fetch would normalise `..` and `%2e%2e` away). */
function raw(
  base: string,
  pathname: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: pathname, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function fileOf(kind: Parameters<typeof engineExport>[0], name: string): Buffer {
  const bytes = engineExport(kind).files[name];
  if (!bytes) {
    throw new Error(`no ${name} in the ${kind} fixture`);
  }
  return bytes;
}

const games: Record<string, HostedGame> = {
  GmGame: { access: 'public', liveVersion: 1, versions: [1], needsThreads: false, engines: {} },
  GodotThreads: {
    access: 'public',
    liveVersion: 1,
    versions: [1],
    needsThreads: true,
    engines: {},
  },
  GodotSingle: {
    access: 'public',
    liveVersion: 1,
    versions: [1],
    needsThreads: false,
    engines: {},
  },
  UnityGame: { access: 'public', liveVersion: 1, versions: [1], needsThreads: false, engines: { 1: 'unity' } }, // prettier-ignore
  // version 1 stopped being live less than 24 h ago (still kept); 3 is on disk but not kept
  Html5Game: {
    access: 'public',
    liveVersion: 2,
    versions: [1, 2],
    needsThreads: false,
    engines: {},
  },
  SubGame: {
    access: 'subscriber',
    liveVersion: 1,
    versions: [1],
    needsThreads: false,
    engines: {},
  },
  Unpublished: {
    access: 'public',
    liveVersion: null,
    versions: [1],
    needsThreads: false,
    engines: {},
  },
};
const catalogue: GameHostCatalogue = { find: (id) => games[id] };

let app: TestApp;
let dir: string;
let games0: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'games-origin-'));
  const lay = (id: string, version: number, kind: Parameters<typeof engineExport>[0]) =>
    writeExport(
      withPrecompressedSiblings(engineExport(kind).files),
      path.join(dir, id, String(version)),
    );
  await lay('GmGame', 1, 'gamemaker');
  await lay('GodotThreads', 1, 'godot4-threads');
  await lay('GodotSingle', 1, 'godot4');
  await lay('UnityGame', 1, 'unity');
  await lay('Html5Game', 1, 'html5');
  await lay('Html5Game', 2, 'html5');
  await lay('Html5Game', 3, 'html5');
  await lay('SubGame', 1, 'html5');
  await lay('Unpublished', 1, 'html5');
  await writeFile(path.join(dir, 'GmGame', 'thumbnail.png'), fileOf('html5', 'assets/sprite.png')); // prettier-ignore
  await writeFile(path.join(dir, 'SubGame', 'thumbnail.webp'), Buffer.from('RIFF0000WEBP'));
  await writeFile(path.join(dir, 'secret.txt'), 'outside every version');
  const defaults = loadConfig({ SESSION_SECRET: 'x'.repeat(32), DATA_DIR: dir });
  app = await startTestApp(
    { gamesHost: { ...defaults.gamesHost, port: 0, dir } },
    { gameHostCatalogue: catalogue },
  );
  if (isTestStorageS3()) {
    // the fixtures go into the app's bucket under the same keys
    await app.deps.gameHost.storage.importFolder(dir, '');
  }
  games0 = app.gamesUrl;
});

afterAll(async () => {
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sitePort = () => new URL(app.url).port;

describe('the games origin serves builds with headers that fit engine exports', () => {
  it('answers a start page with the games CSP, CORP, long caching and no cookie', async () => {
    const res = await raw(games0, '/GmGame/1/index.html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(
      "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:",
    );
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("media-src 'self' data: blob:");
    const site = `http://127.0.0.1:${sitePort()} http://localhost:${sitePort()}`;
    expect(csp).toContain(`frame-ancestors ${site}`);
    expect(csp).toMatch(
      new RegExp(`connect-src 'self' data: blob: .*ws://127\\.0\\.0\\.1:${sitePort()}`),
    );
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.headers['last-modified']).toBeDefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body.toString()).toContain('GameMaker_Init');
  });

  it('gives a threaded build COEP on its documents and workers', async () => {
    for (const file of ['index.html', 'index.worker.js', 'index.js']) {
      const res = await raw(games0, `/GodotThreads/1/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers['cross-origin-embedder-policy'], file).toBe('require-corp');
      expect(res.headers['cross-origin-resource-policy'], file).toBe('cross-origin');
    }
    const single = await raw(games0, '/GodotSingle/1/index.html');
    expect(single.headers['cross-origin-embedder-policy']).toBeUndefined();
  });

  it('sends engine files with their types', async () => {
    const cases: [string, string][] = [
      ['/GodotThreads/1/index.wasm', 'application/wasm'],
      ['/GodotThreads/1/index.pck', 'application/octet-stream'],
      ['/GodotThreads/1/index.js', 'text/javascript; charset=utf-8'],
      ['/GodotThreads/1/index.png', 'image/png'],
      ['/Html5Game/2/css/style.css', 'text/css; charset=utf-8'],
      ['/GmGame/1/options.ini', 'application/octet-stream'],
    ];
    for (const [url, type] of cases) {
      const res = await raw(games0, url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('serves the precompressed siblings by Accept-Encoding, with Vary', async () => {
    const original = fileOf('godot4-threads', 'index.js');
    const br = await raw(games0, '/GodotThreads/1/index.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gz = await raw(games0, '/GodotThreads/1/index.js', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    expect(gz.headers.etag).not.toBe(br.headers.etag);

    const plain = await raw(games0, '/GodotThreads/1/index.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.equals(original)).toBe(true);
  });

  it("serves a build's prebuilt .br/.gz files with Content-Encoding and the inner type", async () => {
    const wasm = await raw(games0, '/UnityGame/1/Build/fixture.wasm.br', {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(wasm.status).toBe(200);
    expect(wasm.headers['content-encoding']).toBe('br');
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(brotliDecompressSync(wasm.body).equals(ANSWER_WASM)).toBe(true);

    const data = await raw(games0, '/UnityGame/1/Build/fixture.data.gz', {
      'accept-encoding': 'gzip',
    });
    expect(data.headers['content-encoding']).toBe('gzip');
    expect(data.headers['content-type']).toBe('application/octet-stream');
    expect(gunzipSync(data.body).toString()).toContain('UnityFS fixture data');

    const framework = await raw(games0, '/UnityGame/1/Build/fixture.framework.js.gz', {
      'accept-encoding': 'gzip',
    });
    expect(framework.headers['content-type']).toBe('text/javascript; charset=utf-8');

    // a browser that does not accept brotli gets the raw bytes, for Unity's own decompressor
    const fallback = await raw(games0, '/UnityGame/1/Build/fixture.wasm.br', {
      'accept-encoding': 'gzip',
    });
    expect(fallback.headers['content-encoding']).toBeUndefined();
    expect(fallback.headers['content-type']).toBe('application/octet-stream');
    expect(brotliDecompressSync(fallback.body).equals(ANSWER_WASM)).toBe(true);
  });

  it('answers byte ranges on the identity bytes', async () => {
    const pck = fileOf('godot4', 'index.pck');
    const first = await raw(games0, '/GodotSingle/1/index.pck', {
      range: 'bytes=0-3',
      'accept-encoding': 'br, gzip',
    });
    expect(first.status).toBe(206);
    expect(first.body.toString()).toBe('GDPC');
    expect(first.headers['content-range']).toBe(`bytes 0-3/${pck.length}`);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers['accept-ranges']).toBe('bytes');

    const tail = await raw(games0, '/GodotSingle/1/index.pck', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(pck.subarray(pck.length - 10))).toBe(true);

    const open = await raw(games0, '/GodotSingle/1/index.pck', { range: 'bytes=2040-' });
    expect(open.body.equals(pck.subarray(2040))).toBe(true);

    const outside = await raw(games0, '/GodotSingle/1/index.pck', { range: 'bytes=99999-' });
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${pck.length}`);

    const stale = await raw(games0, '/GodotSingle/1/index.pck', {
      range: 'bytes=0-3',
      'if-range': '"not-the-etag"',
    });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(pck.length);

    const fresh = await raw(games0, '/GodotSingle/1/index.pck');
    const resumed = await raw(games0, '/GodotSingle/1/index.pck', {
      range: 'bytes=4-7',
      'if-range': String(fresh.headers.etag),
    });
    expect(resumed.status).toBe(206);
  });

  it('answers 304 to a revalidation by ETag or date', async () => {
    const first = await raw(games0, '/Html5Game/2/js/game.js');
    const byTag = await raw(games0, '/Html5Game/2/js/game.js', {
      'if-none-match': String(first.headers.etag),
    });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    expect(byTag.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const byDate = await raw(games0, '/Html5Game/2/js/game.js', {
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(byDate.status).toBe(304);
    const changed = await raw(games0, '/Html5Game/2/js/game.js', { 'if-none-match': '"other"' });
    expect(changed.status).toBe(200);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await raw(games0, '/GodotSingle/1/index.wasm', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(ANSWER_WASM.length));
    expect(res.body.length).toBe(0);
  });

  it('redirects a version folder to its slash and serves its index', async () => {
    const bare = await raw(games0, '/Html5Game/2?x=1');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/Html5Game/2/?x=1');
    const folder = await raw(games0, '/Html5Game/2/');
    expect(folder.status).toBe(200);
    expect(folder.body.toString()).toContain('Plain HTML5 fixture');
    const sub = await raw(games0, '/Html5Game/2/css');
    expect(sub.status).toBe(301);
    expect(sub.headers.location).toBe('/Html5Game/2/css/');
  });

  it('keeps serving a version that stopped being live while the catalogue keeps it', async () => {
    expect((await raw(games0, '/Html5Game/1/index.html')).status).toBe(200);
    expect((await raw(games0, '/Html5Game/3/index.html')).status).toBe(404);
  });

  it('serves thumbnails (subscriber games too) and the SDK with short caching', async () => {
    const thumb = await raw(games0, '/GmGame/thumbnail.png');
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.headers['cache-control']).toBe('public, max-age=300');
    expect((await raw(games0, '/SubGame/thumbnail.webp')).status).toBe(200);
    expect((await raw(games0, '/GmGame/thumbnail.gif')).status).toBe(404);
    expect((await raw(games0, '/Html5Game/thumbnail.png')).status).toBe(404);

    const sdk = await raw(games0, '/sdk.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sdk.headers['cache-control']).toBe('public, max-age=300');
    expect(sdk.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('answers 404 in plain text for anything else', async () => {
    for (const url of [
      '/',
      '/favicon.ico',
      '/api/auth/current-user',
      '/NoSuchGame/1/index.html',
      '/Unpublished/1/index.html',
      '/Unpublished/thumbnail.png',
      '/GmGame/0/index.html',
      '/GmGame/01/index.html',
      '/GmGame/latest/index.html',
      '/GmGame/2/index.html',
      '/GmGame/1/missing.js',
      '/GmGame/1/.hidden',
      '/games/sdk.js',
      '/g/',
    ]) {
      const res = await raw(games0, url);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/plain; charset=utf-8');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
    }
    const post = await raw(games0, '/GmGame/1/index.html', {}, 'POST');
    expect(post.status).toBe(405);
  });

  it('never leaves the version folder', async () => {
    for (const url of [
      '/Html5Game/2/../../SubGame/1/index.html',
      '/Html5Game/2/../3/index.html',
      '/Html5Game/2/%2e%2e/%2e%2e/secret.txt',
      '/Html5Game/2/%2E%2E%2F%2E%2E%2Fsecret.txt',
      '/Html5Game/2/..%2f..%2fsecret.txt',
      '/Html5Game/2/..%5c..%5csecret.txt',
      '/Html5Game/2/..\\..\\secret.txt',
      '/Html5Game/2/index.html%00.png',
      '/Html5Game/2/./index.html',
      '/Html5Game/2//index.html',
      '/Html5Game/2/%252e%252e/%252e%252e/secret.txt',
      '/Html5Game/2/%ff',
      '/..%2f..%2fetc/passwd',
      '/GmGame/1/../../../../../../etc/passwd',
    ]) {
      const res = await raw(games0, url);
      expect(res.status, url).toBe(404);
      expect(res.body.toString(), url).not.toContain('outside every version');
      expect(res.body.toString(), url).not.toContain('<html');
    }
  });
});

// a local folder's matter: a bucket has no links
describe.skipIf(isTestStorageS3())(
  'links on disk never lead out of a folder the games origin serves',
  () => {
    it('answers 404 for links to /etc (a file, a folder, a compressed sibling, a thumbnail)', async () => {
      const version = path.join(dir, 'Html5Game', '2');
      await symlink('/etc/passwd', path.join(version, 'passwd.html'));
      await symlink('/etc', path.join(version, 'etc'));
      await writeFile(path.join(version, 'notes.txt'), 'the notes themselves');
      await symlink('/etc/passwd', path.join(version, 'notes.txt.gz'));
      await symlink('/etc/hostname', path.join(dir, 'GodotSingle', 'thumbnail.png'));
      await symlink(path.join(dir, 'secret.txt'), path.join(version, 'secret.txt'));
      for (const url of [
        '/Html5Game/2/passwd.html',
        '/Html5Game/2/etc/passwd',
        '/Html5Game/2/etc/hostname',
        '/GodotSingle/thumbnail.png',
        '/Html5Game/2/secret.txt',
      ]) {
        const res = await raw(games0, url);
        expect(res.status, url).toBe(404);
        expect(res.body.toString(), url).toBe('Not found');
      }
      // the file beside the planted sibling is served, as itself (never the link's bytes)
      const notes = await raw(games0, '/Html5Game/2/notes.txt', { 'accept-encoding': 'gzip' });
      expect(notes.status).toBe(200);
      expect(notes.headers['content-encoding']).toBeUndefined();
      expect(notes.body.toString()).toBe('the notes themselves');
      expect((await raw(games0, '/Html5Game/2/index.html')).status).toBe(200);
    });

    it('follows a link that stays inside the version folder', async () => {
      const version = path.join(dir, 'Html5Game', '1');
      await symlink('index.html', path.join(version, 'start.html'));
      const res = await raw(games0, '/Html5Game/1/start.html');
      expect(res.status).toBe(200);
      expect(res.body.toString()).toContain('<html');
    });
  },
);

describe('subscriber games need a valid grant on the games origin', () => {
  it('refuses a subscriber game without a grant, with a bad, expired or foreign one', async () => {
    const grants = app.deps.gameHost.grants;
    const expired = grants.sign('SubGame', Date.now() - (GRANT_PAGE_SECONDS + 60) * 1000);
    for (const url of [
      '/SubGame/1/index.html',
      '/g/nonsense/SubGame/1/index.html',
      '/g/zzzz.AAAAAAAAAAAAAAAAAAAAAA/SubGame/1/index.html',
      `/g/${expired}/SubGame/1/index.html`,
      `/g/${grants.sign('GmGame')}/SubGame/1/index.html`,
    ]) {
      const res = await raw(games0, url);
      expect(res.status, url).toBe(403);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.body.toString(), url).not.toContain('<html');
    }
  });

  it("serves a subscriber game's files with a valid grant, privately cached", async () => {
    const grant = app.deps.gameHost.grants.sign('SubGame');
    const page = await raw(games0, `/g/${grant}/SubGame/1/index.html`);
    expect(page.status).toBe(200);
    // a page is checked again on every load (its grant may have expired since)
    expect(page.headers['cache-control']).toBe('private, no-cache');
    // relative URLs keep the grant
    const script = await raw(games0, `/g/${grant}/SubGame/1/js/game.js`);
    expect(script.status).toBe(200);
    expect(script.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });

  it("opens a page only while the grant is fresh; a running game's files a while longer", async () => {
    const grants = app.deps.gameHost.grants;
    const minutesAgo = (minutes: number) => grants.sign('SubGame', Date.now() - minutes * 60_000);
    // a play URL kept (or copied) past what a page load needs opens nothing
    const stale = minutesAgo(GRANT_PAGE_SECONDS / 60 + 1);
    expect((await raw(games0, `/g/${stale}/SubGame/1/index.html`)).status).toBe(403);
    expect((await raw(games0, `/g/${stale}/SubGame/1/`)).status).toBe(403);
    // ...but the game that page started still loads its files
    expect((await raw(games0, `/g/${stale}/SubGame/1/js/game.js`)).status).toBe(200);
    // until that window ends too
    const old = minutesAgo((GRANT_PAGE_SECONDS + GRANT_FILES_SECONDS) / 60 + 1);
    expect((await raw(games0, `/g/${old}/SubGame/1/js/game.js`)).status).toBe(403);
    // far shorter than the three hours grants were good for
    expect(GRANT_PAGE_SECONDS + GRANT_FILES_SECONDS).toBeLessThanOrEqual(3600);
    expect((await raw(games0, `/g/${minutesAgo(179)}/SubGame/1/index.html`)).status).toBe(403);
  });
});

describe('the site refuses API requests from other origins (the games origin above all)', () => {
  const gamesOrigin = () => games0;

  it("refuses a GET with the games origin's Origin or a same-site/cross-site fetch", async () => {
    const client = app.client();
    const refused: Record<string, string>[] = [
      { origin: gamesOrigin() },
      { origin: gamesOrigin(), 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of refused) {
      const res = await client.request<{ error: { code: string } }>(
        'GET',
        '/api/auth/current-user',
        undefined,
        headers,
      );
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const post = await client.post('/api/auth/logout', {}, { origin: gamesOrigin() });
    expect(post.status).toBe(403);
  });

  it('still answers its own pages: same-origin, direct and header-less requests', async () => {
    const client = app.client();
    const allowed: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: app.url, 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of allowed) {
      const res = await client.request('GET', '/api/auth/current-user', undefined, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("lets Stripe's webhook through (it sends neither header)", async () => {
    const res = await fetch(`${app.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' },
      body: '{}',
    });
    // not the guard's 403: refused for its signature (or as unconfigured), never as cross-site
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500 + 4);
  });

  it('lets the site frame the games origin on the other loopback name (CSP frame-src)', async () => {
    const port = new URL(games0).port;
    // the site on one loopback name, its games on the other: cookies are per host name
    for (const [host, games] of [
      ['localhost', '127.0.0.1'],
      ['127.0.0.1', 'localhost'],
    ] as const) {
      const res = await raw(app.url, '/api/health', { host: `${host}:${sitePort()}` });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, host).toMatch(
        new RegExp(`frame-src 'self' http://${games.replace(/\./g, '\\.')}:${port}[ ;]`),
      );
      expect(csp, host).toContain(`img-src 'self' data: blob: https: http://${games}:${port}`);
    }
  });

  it('sets only HttpOnly cookies, which a game cannot read with document.cookie', async () => {
    const client = app.client();
    const username = uniqueName();
    const password = 'correct horse battery';
    expect((await client.post('/api/auth/register', { username, password })).status).toBe(201);
    const login = await client.post('/api/auth/login', { username, password });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie();
    // the session cookie and the device cookie
    expect(cookies.length).toBeGreaterThanOrEqual(2);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*HttpOnly(;|$)/i);
    }
  });
});
