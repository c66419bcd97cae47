import { type Frame, type Page, request as playwrightRequest } from '@playwright/test';

import { engineExport, zipExport } from '../../apps/server/src/test/engine-exports';
import {
  CDN_SCRIPTS,
  DRAWN_COLOUR,
  REAL_EXPORT_KINDS,
  type RealExportKind,
  realExport,
  UNITY_ANALYTICS_URL,
} from '../../apps/server/src/test/real-exports';
import { E2E_ADMIN } from '../fixtures/constants';
import { expect, signIn, test } from '../fixtures';

/*
 * Real engine exports run as uploaded, in Chromium: each fixture shaped like a real
 * public export (apps/server/src/test/real-exports.ts) is published through the admin API as a
 * zip, then framed by a site page from its playUrl on the games origin, and must start as it
 * does on itch.io: its CDN scripts load (answered here: Chromium looks nothing up), a Godot 3
 * CI build inflates its own index.wasm.gz in JavaScript, a UnityLoader build unpacks its
 * .unityweb files and reaches Unity's analytics, nothing throws, the games origin's CSP refuses
 * nothing, and the canvas is drawn. A threaded build still opens cross-origin isolated.
 */

const PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${PORT}`;
const GAMES = `http://localhost:${PORT + 1}`;
const RUN = Date.now().toString(36);
const ID: Record<RealExportKind | 'godot4-threads', string> = {
  'godot43-cdn': `RealGodot43${RUN}`,
  'phaser2-cdn': `RealPhaser2${RUN}`,
  unity2018: `RealUnity2018${RUN}`,
  'godot32-gz': `RealGodot32${RUN}`,
  'gamemaker-exe': `RealGameMaker${RUN}`,
  'godot4-threads': `RealGodotThreads${RUN}`,
};
const playUrls = new Map<string, string>();
const versions = new Map<string, number>();

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: SITE });
  try {
    expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
    const uploads: [string, Record<string, Buffer>][] = [
      ...REAL_EXPORT_KINDS.map((kind): [string, Record<string, Buffer>] => [
        ID[kind],
        realExport(kind).files,
      ]),
      [ID['godot4-threads'], engineExport('godot4-threads').files],
    ];
    for (const [id, files] of uploads) {
      const created = await api.post('/api/admin/games', {
        data: { id, title: id, description: '', instructions: '', section: 'html5', access: 'public' }, // prettier-ignore
      });
      expect(created.status(), await created.text()).toBe(201);
      const upload = await api.put(`/api/admin/games/${id}/build`, {
        headers: { 'content-type': 'application/zip' },
        data: await zipExport(files),
      });
      expect(upload.status(), await upload.text()).toBe(201);
      versions.set(id, ((await upload.json()) as { build: { version: number } }).build.version);
      const published = await api.patch(`/api/admin/games/${id}`, { data: { published: true } });
      expect(published.status()).toBe(200);
    }
    const games = (await (await api.get('/api/games')).json()) as {
      games: { id: string; playUrl: string | null }[];
    };
    for (const [id] of uploads) {
      const playUrl = games.games.find((game) => game.id === id)?.playUrl ?? '';
      expect(playUrl, id).toMatch(new RegExp(`^${GAMES}/${id}/\\d+/index\\.html$`));
      playUrls.set(id, playUrl);
    }
  } finally {
    await api.dispose();
  }
});

interface Watch {
  /** Uncaught errors in any frame, and the browser's CSP refusals ("Refused to …"). */
  problems: string[];
  /** Requests the page made to the public CDNs and to Unity's analytics. */
  outside: string[];
}

/**
 * Answers the public CDN scripts and Unity's analytics (nothing leaves the machine: Chromium's
 * host resolver is mapped away) and records every uncaught error and CSP refusal.
 */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { problems: [], outside: [] };
  for (const [url, body] of Object.entries(CDN_SCRIPTS)) {
    await page.context().route(url, async (route) => {
      seen.outside.push(url);
      await route.fulfill({
        status: 200,
        contentType: 'application/javascript; charset=utf-8',
        headers: { 'access-control-allow-origin': '*' },
        body,
      });
    });
  }
  await page.context().route(`${UNITY_ANALYTICS_URL}**`, async (route) => {
    seen.outside.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
  });
  page.on('pageerror', (error) => seen.problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (/Refused to|Content Security Policy/i.test(message.text())) {
      seen.problems.push(`console: ${message.text()}`);
    }
  });
  return seen;
}

/** Opens a page of the site (its isolated document when asked) and frames `src` in it. */
async function frameOnSitePage(page: Page, src: string, isolated = false): Promise<Frame> {
  await page.goto(isolated ? `${SITE}/games?isolated=1` : `${SITE}/`);
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(isolated);
  await page.evaluate((url) => {
    const iframe = document.createElement('iframe');
    iframe.id = 'game';
    iframe.title = 'Game';
    iframe.src = url;
    iframe.allow = 'fullscreen; autoplay; gamepad; cross-origin-isolated';
    document.body.append(iframe);
  }, src);
  await expect.poll(() => page.frames().some((frame) => frame.url() === src)).toBe(true);
  const frame = page.frames().find((candidate) => candidate.url() === src);
  if (!frame) {
    throw new Error(`no frame at ${src}`);
  }
  return frame;
}

/** What the fixture's page reported (#status) once done or failed. */
async function reportOf(frame: Frame): Promise<Record<string, string>> {
  const read = async () =>
    JSON.parse((await frame.locator('#status').textContent()) || '{}') as Record<string, string>;
  await expect
    .poll(async () => {
      const state = await read();
      return state.done ?? state.error ?? state.csp ?? '';
    })
    .not.toBe('');
  return read();
}

/** The colour of the canvas's middle pixel, as the page drew it. */
function canvasColour(frame: Frame): Promise<number[]> {
  return frame.evaluate(() => {
    const canvas = document.getElementById('canvas');
    if (!(canvas instanceof HTMLCanvasElement)) {
      return [];
    }
    return [...(canvas.getContext('2d')?.getImageData(32, 32, 1, 1).data ?? [])].slice(0, 3);
  });
}

for (const kind of REAL_EXPORT_KINDS) {
  test(`a real ${kind} export runs on the games origin as uploaded`, async ({ page }) => {
    const fixture = realExport(kind);
    const seen = await watch(page);
    const frame = await frameOnSitePage(page, playUrls.get(ID[kind]) ?? '');
    const report = await reportOf(frame);
    expect(report.csp, 'a CSP refusal in the game').toBeUndefined();
    expect(report.error, 'an uncaught error in the game').toBeUndefined();
    expect(report).toMatchObject(fixture.expected);
    expect(await canvasColour(frame)).toEqual([...DRAWN_COLOUR]);
    // give late refusals (analytics, workers) a moment to show up, then none may have
    await page.waitForTimeout(300);
    expect(seen.problems).toEqual([]);
    if (kind === 'godot43-cdn') {
      expect(seen.outside).toContain(
        'https://cdnjs.cloudflare.com/ajax/libs/prism/1.29.0/prism.min.js',
      );
      // single-threaded: not isolated, and it does not need to be
      expect(await frame.evaluate(() => self.crossOriginIsolated)).toBe(false);
    }
    if (kind === 'unity2018') {
      expect(seen.outside.some((url) => url.startsWith(UNITY_ANALYTICS_URL))).toBe(true);
    }
  });
}

test("a GameMaker export's stray Game.exe is not served", async ({ request }) => {
  const id = ID['gamemaker-exe'];
  const base = `${GAMES}/${id}/${versions.get(id)}`;
  expect((await request.get(`${base}/index.html`)).status()).toBe(200);
  for (const stray of ['Game.exe', 'D3DX9_43.dll', '__MACOSX/._index.html']) {
    expect((await request.get(`${base}/${stray}`)).status(), stray).toBe(404);
  }
});

test('the admin sees what was left out of the GameMaker zip in what was detected', async ({
  page,
  admin,
}) => {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await page.goto(`/admin/games/${ID['gamemaker-exe']}`);
  const versions = page.getByRole('region', { name: 'Versions' });
  await versions.getByText('Details').first().click();
  const leftOut = versions.getByRole('list', { name: 'Files left out' });
  await expect(leftOut.getByRole('listitem')).toHaveText(realExport('gamemaker-exe').leftOut);
  await expect(versions.locator('.build-facts dt', { hasText: 'Files' })).toBeVisible();
});

test('a threaded Godot build still opens cross-origin isolated', async ({ page }) => {
  const seen = await watch(page);
  const frame = await frameOnSitePage(page, playUrls.get(ID['godot4-threads']) ?? '', true);
  const report = await reportOf(frame);
  expect(report).toMatchObject(engineExport('godot4-threads').expected);
  expect(report.error).toBeUndefined();
  expect(seen.problems).toEqual([]);
});
