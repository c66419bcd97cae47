import type { APIRequestContext, Browser, Page } from '@playwright/test';

import { E2E_ADMIN } from '../fixtures/constants';
import {
  type Account,
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
} from '../fixtures';

const SECTIONS = ['Multiplayer Browser Games', 'Made With GameMaker', 'Made With Godot'];

/** A browser context signed in as a fresh account of the role (promoted by the admin). */
async function signedInPage(
  browser: Browser,
  request: APIRequestContext,
  role: 'user' | 'subscriber' | 'admin',
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  let account: Pick<Account, 'username' | 'password'> = E2E_ADMIN;
  if (role !== 'admin') {
    const created = await registerAccount(request, role);
    account = created;
    if (role === 'subscriber') {
      // the admin promotes the account from another client than the browser under test
      const admin = await request.post('/api/auth/login', { data: E2E_ADMIN });
      expect(admin.status()).toBe(200);
      const changed = await request.post('/api/update-role', {
        data: { userId: created.id, role: 'subscriber' },
      });
      expect(changed.status()).toBe(200);
      expect((await request.post('/api/auth/logout', { data: {} })).status()).toBe(200);
    }
  }
  await signIn(page, account);
  await expect(page.getByRole('button', { name: /log ?out/i })).toBeVisible();
  return page;
}

/** Whether the canvas in the game's frame has drawn anything but one flat colour. */
async function canvasHasDrawn(page: Page, frameTitle: string): Promise<boolean> {
  return page
    .frameLocator(`iframe[title="${frameTitle}"]`)
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context) {
        return false;
      }
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) {
        colours.add(((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0));
      }
      return colours.size > 2;
    });
}

test('the sections toggle by mouse and keyboard; the page passes axe and fits a phone', async ({
  page,
}) => {
  await page.goto('/games');
  for (const name of SECTIONS) {
    await expect(page.getByRole('button', { name })).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(page.getByText('F10 toggles game fullscreen.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'WolfScape, Login to Play' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);

  await page.getByRole('button', { name: 'Made With GameMaker' }).click();
  await expect(page.getByRole('button', { name: 'Made With GameMaker' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeHidden();
  // the other sections stay open
  await expect(page.getByRole('link', { name: 'Pong, Login to Play' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rocket Game, Login to Play' })).toBeVisible();

  // by keyboard: focus the toggle, Enter opens the section again, Tab reaches its first card
  await page.getByRole('button', { name: 'Made With GameMaker' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/games\?play=TopDownRogueLike$/);
  await expect(page.getByRole('heading', { name: 'TopDown RogueLike', level: 1 })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);
});

test.describe('locked cards and where blocked clicks go', () => {
  test('guest', async ({ page }) => {
    await page.goto('/games');
    await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeVisible();
    await page.getByRole('link', { name: 'WolfScape, Login to Play' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/games');
    await page.getByRole('link', { name: 'Pong, Login to Play' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=\/subscribe$/);
  });

  test('user', async ({ browser, request }) => {
    const page = await signedInPage(browser, request, 'user');
    await page.goto('/games');
    await expect(page.getByRole('link', { name: 'WolfScape', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Rocket Game', exact: true })).toBeVisible();
    const clicks: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/track-game-click')) {
        clicks.push(req.postData() ?? '');
      }
    });
    await page.getByRole('link', { name: 'Pong, Subscribe to Play' }).click();
    await expect(page).toHaveURL(/\/subscribe$/);
    expect(clicks).toEqual([]);
    // /subscribe is a document of its own (the CSP lets Stripe.js run only there), and it took
    // the place of the app's entry: one Back returns to the games
    await expect(page.getByRole('heading', { level: 1, name: /subscri/i })).toBeVisible();
    const documentUrl = await page.evaluate(
      () => performance.getEntriesByType('navigation')[0]?.name ?? '',
    );
    expect(new URL(documentUrl).pathname).toBe('/subscribe');
    await page.goBack();
    await expect(page).toHaveURL(/\/games$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Games' })).toBeVisible();
    await page.context().close();
  });

  for (const role of ['subscriber', 'admin'] as const) {
    test(role, async ({ browser, request }) => {
      const page = await signedInPage(browser, request, role);
      await page.goto('/games');
      await expect(page.getByRole('link', { name: 'Pong', exact: true })).toBeVisible();
      await expect(page.getByText(/to Play/)).toHaveCount(0);
      await page.context().close();
    });
  }
});

test('a guest opens a public game: the click is sent, the frame draws, instructions toggle, Close and Back return', async ({
  page,
}) => {
  test.slow();
  await page.goto('/games');
  const click = page.waitForRequest(
    (req) => req.url().endsWith('/api/track-game-click') && req.method() === 'POST',
  );
  await page.getByRole('link', { name: 'Co-op Adventure' }).click();
  expect((await click).postDataJSON()).toEqual({ gameId: 'CoopAdventure' });
  await expect(page).toHaveURL(/\/games\?play=CoopAdventure$/);

  const frame = page.locator('iframe[title="Co-op Adventure (game)"]');
  await expect(frame).toHaveAttribute('src', '/games/CoopAdventure/');
  await expect(frame).toHaveAttribute('allowfullscreen', '');
  const box = await frame.boundingBox();
  expect(box?.height).toBe(800);
  await expect
    .poll(() => canvasHasDrawn(page, 'Co-op Adventure (game)'), { timeout: 10_000 })
    .toBe(true);
  await expect(page.locator('[data-device-class]')).toHaveAttribute(
    'data-device-class',
    'standard',
  );

  await expect(page.getByText(/Same-keyboard co-op/)).toBeVisible();
  await page.getByRole('button', { name: 'Hide Instructions' }).click();
  await expect(page.getByText(/Same-keyboard co-op/)).toBeHidden();
  await page.getByRole('button', { name: 'Show Instructions' }).click();
  await expect(page.getByText(/Same-keyboard co-op/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole('heading', { name: 'Games', level: 1 })).toBeVisible();

  await page.getByRole('link', { name: 'TopDown RogueLike' }).click();
  await expect(page.locator('iframe[title="TopDown RogueLike (game)"]')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole('link', { name: 'Co-op Adventure' })).toBeVisible();

  // a link opens the game directly
  await page.goto('/games?play=MainQuest2');
  await expect(page.getByRole('heading', { name: 'Android Mobile Game', level: 1 })).toBeVisible();
  await expect
    .poll(() => canvasHasDrawn(page, 'Android Mobile Game (game)'), { timeout: 10_000 })
    .toBe(true);
});

test('an admin plays Pong through the real SDK: playtime, save and achievement are recorded', async ({
  browser,
  request,
}) => {
  test.slow();
  const page = await signedInPage(browser, request, 'admin');
  const myPong = async () => {
    const response = await page.request.get('/api/me/games');
    expect(response.status()).toBe(200);
    const body = (await response.json()) as {
      games: {
        gameId: string;
        playtimeSeconds: number;
        hasSave: boolean;
        achievements: { name: string }[];
      }[];
    };
    return body.games.find((game) => game.gameId === 'Pong');
  };
  const before = await myPong();

  await page.goto('/games');
  await page.getByRole('link', { name: 'Pong', exact: true }).click();
  await expect.poll(() => canvasHasDrawn(page, 'Pong (game)'), { timeout: 10_000 }).toBe(true);
  // nobody moves a paddle: the ball gets past one within a few seconds, the first point
  // unlocks 'First Point' and a new high score is saved
  await expect
    .poll(async () => (await myPong())?.achievements.map((a) => a.name), { timeout: 30_000 })
    .toContain('First Point');
  await expect.poll(async () => (await myPong())?.hasSave, { timeout: 10_000 }).toBe(true);
  const save = await page.request.get('/api/games/Pong/save');
  expect(((await save.json()) as { data: { highScore: number } }).data.highScore).toBeGreaterThan(
    0,
  );

  // closing the viewer ends the play session: the time played is on the record
  await page.getByRole('button', { name: 'Close' }).click();
  await expect
    .poll(async () => (await myPong())?.playtimeSeconds ?? 0, { timeout: 10_000 })
    .toBeGreaterThan(before?.playtimeSeconds ?? 0);
  await page.context().close();
});

test("Pong's files answer 403 to a user and a guest; missing game files and assets are 404s", async ({
  browser,
  request,
}) => {
  const page = await signedInPage(browser, request, 'user');
  for (const path of ['/games/Pong/', '/games/Pong/pong.js']) {
    expect((await page.request.get(path)).status(), path).toBe(403);
    expect((await request.get(path)).status(), `guest ${path}`).toBe(403);
  }
  for (const path of ['/games/TopDownRogueLike/missing.js', '/games/Nope/', '/assets/missing.js']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()['content-type'], path).not.toContain('text/html');
  }
  // the page itself and the SDK are there
  expect((await request.get('/games')).headers()['content-type']).toContain('text/html');
  expect((await request.get('/games/sdk.js')).status()).toBe(200);
  // a user opening Pong's link is sent to subscribe
  await page.goto('/games?play=Pong');
  await expect(page).toHaveURL(/\/subscribe$/);
  await page.context().close();
});
