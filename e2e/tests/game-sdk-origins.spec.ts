import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Frame, Page } from '@playwright/test';

import { expect, registerAccount, signIn, test } from '../fixtures';

/*
 * Games run on an origin of their own and talk to the site's viewer over postMessage.
 * The site (E2E_PORT) embeds a game from the games origin the same process serves (E2E_PORT + 1),
 * with that origin's headers (frame-ancestors the site, scripts from itself and the site,
 * sockets to the site).
 */

const SITE_PORT = Number(process.env.E2E_PORT ?? 4300);
const GAMES_ORIGIN = `http://localhost:${SITE_PORT + 1}`;
const DEMO_GAMES_DIR = fileURLToPath(new URL('../../packages/games', import.meta.url));

interface Entry {
  id: string;
  title: string;
  section: 'multiplayer' | 'html5';
  serverType?: string;
}

const GAMES: Entry[] = [
  { id: 'RocketGame', title: 'Rocket Game', section: 'multiplayer', serverType: 'rocketGame' },
  { id: 'CoopAdventure', title: 'Co-op Adventure', section: 'html5' },
];

/** GET /api/games as the catalogue answers it, each game live as version 1 on the games origin. */
function catalogue() {
  return {
    games: GAMES.map((game) => ({
      id: game.id,
      title: game.title,
      description: `${game.title}, served from the games origin.`,
      thumbnail: '/assets/games/rocketgame.svg',
      instructions: 'Play.',
      section: game.section,
      access: 'public',
      isMultiplayer: game.section === 'multiplayer',
      ...(game.serverType ? { serverType: game.serverType } : {}),
      playUrl: `${GAMES_ORIGIN}/${game.id}/1/index.html`,
      needsIsolation: false,
      version: 1,
    })),
  };
}

/** Whether the app has the database catalogue (GET /api/games) with the demo games imported. */
let hasCatalogue = false;

test.beforeAll(async ({ request }) => {
  hasCatalogue = (await request.get('/api/games')).ok();
  if (!hasCatalogue) {
    // no catalogue yet: the games origin serves what GAMES_DIR (DATA_DIR/games) holds, each
    // <gameId>/<n>/ folder a version; the demo games go there as version 1
    const dataDir = process.env.E2E_DATA_DIR;
    if (!dataDir) {
      throw new Error('E2E_DATA_DIR is not set');
    }
    for (const game of GAMES) {
      const target = path.join(dataDir, 'games', game.id, '1');
      await mkdir(target, { recursive: true });
      await cp(path.join(DEMO_GAMES_DIR, game.id), target, { recursive: true });
    }
  }
  await expect
    .poll(async () => (await request.get(`${GAMES_ORIGIN}/CoopAdventure/1/index.html`)).status())
    .toBe(200);
});

/** Until the app has its catalogue, the viewer reads this one (the same games, version 1). */
async function useCatalogue(page: Page) {
  if (hasCatalogue) {
    return;
  }
  await page.route('**/api/games', (route) =>
    route.fulfill({ json: catalogue(), headers: { 'Cache-Control': 'no-store' } }),
  );
}

/** The game's frame, once its document on the games origin has loaded the SDK. */
async function gameFrame(page: Page, gameId: string): Promise<Frame> {
  await expect
    .poll(() => page.frames().some((frame) => frame.url().startsWith(`${GAMES_ORIGIN}/`)))
    .toBe(true);
  const frame = page.frames().find((candidate) => candidate.url().includes(`/${gameId}/`));
  if (!frame) {
    throw new Error(`no frame for ${gameId}`);
  }
  await frame.waitForFunction(() => 'GameSDK' in window);
  return frame;
}

interface MyGames {
  games: Array<{ gameId: string; hasSave: boolean; achievements: Array<{ name: string }> }>;
}

async function myRecord(page: Page, gameId: string) {
  const response = await page.request.get('/api/me/games');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as MyGames).games.find((game) => game.gameId === gameId);
}

test('a game on the games origin saves, loads and unlocks through the viewer; other origins and windows are ignored', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const account = await registerAccount(page.request, 'sdk');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await useCatalogue(page);
  await page.goto('/games?play=CoopAdventure');
  await expect(page.getByRole('heading', { name: 'Co-op Adventure', level: 1 })).toBeVisible();
  const frame = await gameFrame(page, 'CoopAdventure');
  expect(await frame.evaluate(() => window.location.origin)).toBe(GAMES_ORIGIN);
  expect(await frame.evaluate(() => window.GameSDK.hostOrigin)).toBe(new URL(page.url()).origin);

  // the viewer's own frame: a save, a load of it, an achievement
  const loaded = await frame.evaluate(async () => {
    await window.GameSDK.save({ level: 3, name: 'cross-origin' });
    await window.GameSDK.unlock('Better Together');
    return window.GameSDK.load();
  });
  expect(loaded).toEqual({ level: 3, name: 'cross-origin' });
  await expect
    .poll(async () => (await myRecord(page, 'CoopAdventure'))?.achievements.map((a) => a.name))
    .toEqual(['Better Together']);
  expect((await myRecord(page, 'CoopAdventure'))?.hasSave).toBe(true);

  // a second frame of the games origin, not the viewer's own, asks through the real SDK
  await page.evaluate((gamesOrigin) => {
    const intruder = document.createElement('iframe');
    intruder.name = 'intruder';
    intruder.title = 'intruder';
    intruder.src = `${gamesOrigin}/CoopAdventure/1/index.html`;
    document.body.append(intruder);
  }, GAMES_ORIGIN);
  await expect.poll(() => page.frame({ name: 'intruder' })?.url() ?? '').toContain('/1/index');
  const intruder = page.frame({ name: 'intruder' });
  await intruder?.waitForFunction(() => 'GameSDK' in window);
  await intruder?.evaluate(() => {
    void window.GameSDK.unlock('Forged By Another Frame');
    void window.GameSDK.save({ forged: 'another frame' });
  });
  // the viewer's own frame, now holding a document of another origin (the site's: the only other
  // one the site's frame-src allows), posts well-formed requests
  const viewerFrame = page.locator('iframe[title="Co-op Adventure (game)"]');
  await viewerFrame.evaluate((element: HTMLIFrameElement) => {
    element.src = 'about:blank';
  });
  const blank = await (await viewerFrame.elementHandle())?.contentFrame();
  await expect.poll(() => blank?.url()).toBe('about:blank');
  expect(await blank?.evaluate(() => window.origin)).toBe(new URL(page.url()).origin);
  await blank?.evaluate(() => {
    const send = (id: number, type: string, payload: unknown) => {
      window.parent.postMessage(
        { protocol: 'portfolio-game-sdk', kind: 'request', id, type, payload },
        '*',
      );
    };
    send(1, 'unlock', { name: 'Forged By Another Origin' });
    send(2, 'save', { data: { forged: 'another origin' } });
  });

  // had the viewer taken any of them, it would show within a second
  await page.waitForTimeout(1500);
  const record = await myRecord(page, 'CoopAdventure');
  expect(record?.achievements.map((achievement) => achievement.name)).toEqual(['Better Together']);
  const save = await page.request.get('/api/games/CoopAdventure/save');
  expect(((await save.json()) as { data: unknown }).data).toEqual({
    level: 3,
    name: 'cross-origin',
  });
});

test('a multiplayer game on the games origin joins its room with a play ticket', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const account = await registerAccount(page.request, 'ticket');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await useCatalogue(page);
  await page.goto('/games?play=RocketGame');
  const frame = await gameFrame(page, 'RocketGame');
  const game = page.frameLocator('iframe[title="Rocket Game (game)"]');
  // the server knows the player by the ticket (the games origin's handshake carries no usable
  // cookie) and seats them: the HUD lists them and the status message is gone
  await expect(game.locator('#hud')).toContainText(account.username);
  await expect(game.getByRole('status')).toBeHidden();
  expect(await frame.evaluate(() => window.location.origin)).toBe(GAMES_ORIGIN);

  // signed out elsewhere: the server ends the game, and the game's link leads to the site's login
  expect((await page.request.post('/api/auth/logout', { data: {} })).status()).toBe(200);
  await expect(game.getByRole('status')).toContainText('Disconnected: your session ended.');
  await expect(game.getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    `http://127.0.0.1:${SITE_PORT}/login`,
  );
  await expect(game.getByRole('link', { name: 'Log in' })).toHaveAttribute('target', '_top');
});
