import { type Frame, type Page, request as playwrightRequest } from '@playwright/test';

import {
  ENGINE_EXPORT_KINDS,
  type EngineExportKind,
  engineExport,
  zipExport,
} from '../../apps/server/src/test/engine-exports';
import { E2E_ADMIN } from '../fixtures/constants';
import { expect, registerAccount, test } from '../fixtures';

/*
 * Engine exports on the games origin, in Chromium: each fixture export is published
 * through the admin API as a zip (as `npm run games:publish` does), then opened from its playUrl
 * in an iframe of a site page (the site's own CSP must let it in: frame-src), and must start as
 * it would on itch.io: inline start-up script, WebAssembly, cross-origin isolation for the
 * threaded build when the top page is isolated, storage kept across a reload. The frame can
 * neither call the site's API as the visitor nor read the site's cookie.
 *
 * The isolated top page is the site's own isolated document (/games?isolated=1, COOP + COEP,
 * from game-host-web); the others are the home page.
 */

const PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${PORT}`;
const GAMES = `http://localhost:${PORT + 1}`;
const ID: Record<EngineExportKind, string> = {
  gamemaker: 'FixtureGameMaker',
  'godot4-threads': 'FixtureGodotThreads',
  godot4: 'FixtureGodot',
  unity: 'FixtureUnity',
  html5: 'FixtureHtml5',
};
const playUrls: Partial<Record<EngineExportKind, string>> = {};

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: SITE });
  try {
    const login = await api.post('/api/auth/login', { data: E2E_ADMIN });
    expect(login.status()).toBe(200);
    for (const kind of ENGINE_EXPORT_KINDS) {
      const build = engineExport(kind);
      const id = ID[kind];
      const created = await api.post('/api/admin/games', {
        data: { id, title: `Fixture ${kind}`, description: '', instructions: '', section: 'html5', access: 'public' }, // prettier-ignore
      });
      expect([201, 409], await created.text()).toContain(created.status());
      const upload = await api.put(`/api/admin/games/${id}/build`, {
        headers: { 'content-type': 'application/zip' },
        data: await zipExport(build.files),
      });
      expect(upload.status(), await upload.text()).toBe(201);
      const published = (await upload.json()) as { build: { needsThreads: boolean } };
      expect(published.build.needsThreads, kind).toBe(build.needsThreads);
      expect((await api.patch(`/api/admin/games/${id}`, { data: { published: true } })).status()).toBe(200); // prettier-ignore
    }
    const games = (await (await api.get('/api/games')).json()) as {
      games: { id: string; playUrl: string | null }[];
    };
    for (const kind of ENGINE_EXPORT_KINDS) {
      const playUrl = games.games.find((game) => game.id === ID[kind])?.playUrl;
      expect(playUrl, kind).toMatch(new RegExp(`^${GAMES}/${ID[kind]}/\\d+/index\\.html$`));
      playUrls[kind] = playUrl ?? '';
    }
  } finally {
    await api.dispose();
  }
});

const playUrlOf = (kind: EngineExportKind) => playUrls[kind] ?? '';

/** Opens a page of the site (its isolated document when asked) and frames `src` in it. */
async function frameOnSitePage(page: Page, src: string, options: { isolated: boolean }) {
  await page.goto(options.isolated ? `${SITE}/games?isolated=1` : `${SITE}/`);
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(options.isolated);
  await page.evaluate((url) => {
    const iframe = document.createElement('iframe');
    iframe.id = 'game';
    iframe.title = 'Game';
    iframe.src = url;
    iframe.allow = 'fullscreen; autoplay; gamepad; cross-origin-isolated';
    document.body.append(iframe);
  }, src);
  const frame = await expectFrame(page, src);
  return frame;
}

async function expectFrame(page: Page, src: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((frame) => frame.url() === src)).toBe(true);
  const frame = page.frames().find((candidate) => candidate.url() === src);
  if (!frame) {
    throw new Error(`no frame at ${src}`);
  }
  return frame;
}

/** What the fixture's start page reported (#status), once it says done or failed. */
async function reportOf(frame: Frame): Promise<Record<string, string>> {
  await expect
    .poll(async () => {
      const text = await frame.locator('#status').textContent();
      const state = JSON.parse(text || '{}') as Record<string, string>;
      return state.done ?? state.error ?? '';
    })
    .not.toBe('');
  return JSON.parse((await frame.locator('#status').textContent()) || '{}') as Record<
    string,
    string
  >;
}

for (const kind of ENGINE_EXPORT_KINDS) {
  test(`a ${kind} export starts in a frame of the site and keeps its save`, async ({ page }) => {
    const build = engineExport(kind);
    const src = playUrlOf(kind);
    const frame = await frameOnSitePage(page, src, { isolated: build.needsThreads });
    const report = await reportOf(frame);
    expect(report).toMatchObject(build.expected);
    if (!build.needsThreads && report.isolated !== undefined) {
      expect(report.isolated).toBe('false');
    }
    // the engine's save is still there after a reload of the game
    await frame.evaluate(() => location.reload());
    const again = await reportOf(await expectFrame(page, src));
    expect(again.storage).toBe('2');
  });
}

test('a threaded build is not isolated under a page that is not', async ({ page }) => {
  const src = playUrlOf('godot4-threads');
  const frame = await frameOnSitePage(page, src, { isolated: false });
  await expect
    .poll(async () => (await frame.evaluate(() => document.title)) || '')
    .toMatch(/isolated=false/);
  expect(await frame.evaluate(() => typeof SharedArrayBuffer)).toBe('undefined');
});

test("a game's frame cannot act as the visitor on the site's API nor read its cookie", async ({
  page,
}) => {
  const account = await registerAccount(page.request, 'gamehost');
  const login = await page.request.post('/api/auth/login', {
    data: { username: account.username, password: account.password },
  });
  expect(login.status()).toBe(200);
  // the visitor is signed in on the site: the session cookie exists and works there
  expect((await page.context().cookies(SITE)).map((cookie) => cookie.name)).toContain('__Host-sid');

  const src = playUrlOf('html5');
  const frame = await frameOnSitePage(page, src, { isolated: false });
  await reportOf(frame);
  expect(
    await page.evaluate(async () => {
      const response = await fetch('/api/auth/current-user');
      return ((await response.json()) as { user: { username: string } | null }).user?.username;
    }),
  ).toBe(account.username);

  const apiAnswers: string[] = [];
  page.on('response', (response) => {
    if (response.url() === `${SITE}/api/auth/current-user`) {
      apiAnswers.push(`${response.status()} ${response.frame().url()}`);
    }
  });
  page.on('requestfailed', (request) => {
    if (request.url() === `${SITE}/api/auth/current-user`) {
      apiAnswers.push(`failed ${request.failure()?.errorText} ${request.frame().url()}`);
    }
  });
  const attempts = await frame.evaluate(async (site) => {
    const outcomes: string[] = [];
    for (const init of [
      { credentials: 'include' },
      { credentials: 'include', mode: 'no-cors' },
    ] as RequestInit[]) {
      try {
        const response = await fetch(`${site}/api/auth/current-user`, init);
        outcomes.push(`${response.type}:${response.status}:${await response.text()}`);
      } catch (error) {
        outcomes.push(`refused:${(error as Error).name}`);
      }
    }
    // a write the browser lets through without CORS (a simple no-cors POST): signing out
    await fetch(`${site}/api/auth/logout`, {
      method: 'POST',
      mode: 'no-cors',
      credentials: 'include',
    }).catch(() => undefined);
    return { outcomes, cookie: document.cookie };
  }, SITE);
  // CORS (and the API's CORP same-origin for no-cors) hide the answer from the game, and the
  // site refused it anyway (403)
  expect(attempts.outcomes).toEqual(['refused:TypeError', 'refused:TypeError']);
  expect(attempts.outcomes.join()).not.toContain(account.username);
  // the browser blocked both answers from reaching the frame (CORS, then CORP)
  await expect.poll(() => apiAnswers.length).toBe(2);
  expect(apiAnswers.every((answer) => answer.startsWith('failed ') && answer.endsWith(src))).toBe(
    true,
  );
  // the visitor is still signed in: the frame's sign-out was refused
  expect(
    await page.evaluate(async () => {
      const response = await fetch('/api/auth/current-user');
      return ((await response.json()) as { user: { username: string } | null }).user?.username;
    }),
  ).toBe(account.username);
  // the site's cookie is HttpOnly and on another host name: a game cannot read it
  expect(attempts.cookie).not.toContain('sid=');
  expect(attempts.cookie).toBe('');
});

test('the games origin refuses to be framed by another origin', async ({ page }) => {
  const src = playUrlOf('html5');
  // a page of the games origin itself (not the site) is not an allowed embedder
  await page.goto(playUrlOf('gamemaker'));
  const blocked = page.waitForEvent('console', {
    predicate: (message) => /frame-ancestors/.test(message.text()),
  });
  await page.evaluate((url) => {
    const iframe = document.createElement('iframe');
    iframe.src = url;
    document.body.append(iframe);
  }, src);
  await blocked;
});
