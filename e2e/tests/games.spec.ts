import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';

import { engineExport, zipExport } from '../../apps/server/src/test/engine-exports';
import { E2E_ADMIN } from '../fixtures/constants';
import {
  type Account,
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

const SECTIONS = ['Multiplayer Browser Games', 'Made With GameMaker', 'Made With Godot'];

/** The games origin of the site under test: the same host on the next port. */
const GAMES_ORIGIN = `http://localhost:${Number(process.env.E2E_PORT ?? 4300) + 1}`;

/** Console messages that say the frame's permissions were given twice. */
function collectFullscreenWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (/allowfullscreen/i.test(message.text())) {
      warnings.push(message.text());
    }
  });
  return warnings;
}

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
  // the game has focus, so its first key and click reach it
  await expect(page.getByRole('heading', { name: 'TopDown RogueLike', level: 1 })).toBeVisible();
  await expect(page.locator('iframe[title="TopDown RogueLike (game)"]')).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);
});

test.describe('locked cards and where blocked clicks go', () => {
  test('guest', async ({ page }) => {
    await page.goto('/games');
    await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeVisible();
    await page.getByRole('link', { name: 'WolfScape, Login to Play' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fgames%3Fplay%3DWolfScape$/);
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
  const fullscreenWarnings = collectFullscreenWarnings(page);
  // a window with room for the spec's 800 px frame under the viewer's bar (smaller windows fit
  // it to them: game-viewer.spec.ts)
  await page.setViewportSize({ width: 1600, height: 1200 });
  await page.goto('/games');
  const click = page.waitForRequest(
    (req) => req.url().endsWith('/api/track-game-click') && req.method() === 'POST',
  );
  await page.getByRole('link', { name: 'Co-op Adventure' }).click();
  expect((await click).postDataJSON()).toEqual({ gameId: 'CoopAdventure' });
  await expect(page).toHaveURL(/\/games\?play=CoopAdventure$/);

  // the live build on the games origin, fullscreen allowed by the allow attribute only
  const frame = page.locator('iframe[title="Co-op Adventure (game)"]');
  await expect(frame).toHaveAttribute(
    'src',
    new RegExp(`^${GAMES_ORIGIN.replace(/\./g, '\\.')}/CoopAdventure/\\d+/`),
  );
  await expect(frame).toHaveAttribute(
    'allow',
    'fullscreen; autoplay; gamepad; accelerometer; gyroscope; clipboard-write',
  );
  expect(await frame.getAttribute('allowfullscreen')).toBeNull();
  const box = await frame.boundingBox();
  expect(box?.height).toBe(800);
  await expect
    .poll(() => canvasHasDrawn(page, 'Co-op Adventure (game)'), { timeout: 10_000 })
    .toBe(true);
  await expect(page.locator('[data-device-class]')).toHaveAttribute(
    'data-device-class',
    'standard',
  );
  expect(fullscreenWarnings).toEqual([]);

  // fullscreen is one press away, and Escape leaves it
  await page.getByRole('button', { name: 'Fullscreen' }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.querySelector('iframe') !== null))
    .toBe(true);
  await page.evaluate(() => document.exitFullscreen());
  // the window is back to its size and laid out again before the next click (a click while
  // Chromium was still leaving fullscreen once landed on nothing)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            requestAnimationFrame(() =>
              requestAnimationFrame(() => resolve(document.fullscreenElement === null)),
            );
          }),
      ),
    )
    .toBe(true);

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
  // no touch screen, no touch controls over the game
  await expect(
    page
      .frameLocator('iframe[title="Android Mobile Game (game)"]')
      .getByRole('button', { name: 'Jump' }),
  ).toBeHidden();
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

for (const viewport of [
  { name: 'upright', width: 390, height: 844 },
  { name: 'landscape', width: 844, height: 390 },
]) {
  test(`a phone ${viewport.name} (${viewport.width}×${viewport.height}) shows the whole game and its touch controls without scrolling (19.1)`, async ({
    browser,
  }) => {
    test.slow();
    const context = await browser.newContext({
      viewport: { width: viewport.width, height: viewport.height },
      // the project's desktop screen (1920×1080) would say landscape to an upright phone
      screen: { width: viewport.width, height: viewport.height },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const fullscreenWarnings = collectFullscreenWarnings(page);
    await page.goto('/games');
    await page.getByRole('link', { name: 'Android Mobile Game' }).tap();
    await expect(
      page.getByRole('heading', { name: 'Android Mobile Game', level: 1 }),
    ).toBeVisible();
    const title = 'Android Mobile Game (game)';
    const frame = page.locator(`iframe[title="${title}"]`);
    await expect.poll(() => canvasHasDrawn(page, title), { timeout: 10_000 }).toBe(true);
    // the instructions start collapsed; the frame and the game's canvas are inside the screen
    await expect(page.getByRole('button', { name: 'Show Instructions' })).toBeVisible();
    const inView = (box: { x: number; y: number; width: number; height: number } | null) => {
      expect(box).not.toBeNull();
      if (box) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
      }
    };
    await expect(page.locator('[data-device-class]')).toHaveAttribute(
      'data-device-class',
      viewport.name === 'upright' ? 'mobile' : 'mobile-landscape',
    );
    const frameBox = await frame.boundingBox();
    inView(frameBox);
    const canvas = page.frameLocator(`iframe[title="${title}"]`).locator('canvas');
    const canvasBox = await canvas.boundingBox();
    inView(canvasBox);
    // no band of empty frame above the game: the canvas starts where the frame starts, or is
    // centred beside bands at its sides only
    expect(Math.abs((canvasBox?.y ?? 0) - (frameBox?.y ?? 0))).toBeLessThanOrEqual(2);

    // the touch controls show from the start, before any touch, each 44 px or more and inside
    // the frame (33×29 px, and only after the first touch)
    const game = page.frameLocator(`iframe[title="${title}"]`);
    for (const name of ['Move left', 'Move right', 'Jump']) {
      const button = game.getByRole('button', { name });
      await expect(button).toBeVisible();
      const box = await button.boundingBox();
      expect(box, name).not.toBeNull();
      if (box && frameBox) {
        expect(box.width, `${name} width`).toBeGreaterThanOrEqual(44);
        expect(box.height, `${name} height`).toBeGreaterThanOrEqual(44);
        expect(box.x).toBeGreaterThanOrEqual(frameBox.x - 0.5);
        expect(box.y).toBeGreaterThanOrEqual(frameBox.y - 0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(frameBox.x + frameBox.width + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(frameBox.y + frameBox.height + 0.5);
      }
      inView(box);
    }
    // holding Jump presses it; letting go releases it
    const jump = game.getByRole('button', { name: 'Jump' });
    await jump.dispatchEvent('pointerdown', {
      pointerId: 7,
      pointerType: 'touch',
      isPrimary: true,
    });
    await expect(jump).toHaveAttribute('aria-pressed', 'true');
    await jump.dispatchEvent('pointerup', { pointerId: 7, pointerType: 'touch', isPrimary: true });
    await expect(jump).toHaveAttribute('aria-pressed', 'false');

    // fullscreen is one tap
    await page.getByRole('button', { name: 'Fullscreen', exact: true }).tap();
    await expect
      .poll(() => page.evaluate(() => document.fullscreenElement?.querySelector('iframe') !== null))
      .toBe(true);
    await page.evaluate(() => document.exitFullscreen());
    expect(fullscreenWarnings).toEqual([]);

    // the instructions open above the game and keep it in view
    await page.getByRole('button', { name: 'Show Instructions' }).tap();
    await expect(page.getByText(/use the touch controls on screen/)).toBeVisible();
    inView(await frame.boundingBox());
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });
}

test('the isolated games page (isolated=1) is cross-origin isolated and still works; leaving it loads the next page normally', async ({
  page,
}) => {
  const blocked: string[] = [];
  page.on('requestfailed', (request) =>
    blocked.push(`${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('console', (message) => {
    if (message.type() === 'error') {
      blocked.push(message.text());
    }
  });
  const response = await page.goto('/games?isolated=1');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  // the page's own scripts, styles, images and API calls all load under COEP
  await expect(page.getByRole('link', { name: 'Co-op Adventure' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect
    .poll(() =>
      page
        .locator('img')
        .evaluateAll((images: HTMLImageElement[]) =>
          images.filter((image) => !image.complete || image.naturalWidth === 0).map((i) => i.src),
        ),
    )
    .toEqual([]);
  expect(blocked).toEqual([]);

  // a link to another page leaves the isolated document: the gallery's video frames load again
  await page.getByRole('link', { name: 'Gallery' }).first().click();
  await expect(page).toHaveURL(/\/Gallery$/i);
  // the isolated document may render the gallery a moment before its reload replaces it: wait
  // for the new document (an evaluate during the reload fails, and is asked again)
  await expect
    .poll(() => page.evaluate(() => window.crossOriginIsolated).catch(() => 'reloading'))
    .toBe(false);
  await expect(page.getByRole('heading', { name: 'My Gallery', level: 1 })).toBeVisible();
  // other pages are never isolated
  const games = await page.request.get('/games');
  expect(games.headers()['cross-origin-embedder-policy']).toBeUndefined();
});

test('a game whose build uses threads opens cross-origin isolated, in the page and in its frame', async ({
  page,
  request,
}) => {
  test.slow();
  // the admin publishes a Godot 4 threaded export through the API (the admin UI is tested on its own)
  const id = uniqueName('Threads');
  expect((await request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const created = await request.post('/api/admin/games', {
    data: {
      id,
      title: `Threads ${id}`,
      description: 'A Godot 4 export with threads.',
      instructions: 'It runs by itself.',
      section: 'html5',
      access: 'public',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const threaded = engineExport('godot4-threads');
  const uploaded = await request.put(`/api/admin/games/${id}/build`, {
    headers: { 'Content-Type': 'application/zip' },
    data: await zipExport(threaded.files),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  expect(((await uploaded.json()) as { build: { needsThreads: boolean } }).build.needsThreads).toBe(
    true,
  );
  const published = await request.patch(`/api/admin/games/${id}`, { data: { published: true } });
  expect(published.status(), await published.text()).toBe(200);

  // a guest opens it from the list: the viewer is a page load of its own, isolated
  await page.goto('/games');
  await expect(page.getByRole('button', { name: 'Other HTML5 Games' })).toBeVisible();
  await page.getByRole('link', { name: `Threads ${id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/games\\?play=${id}&isolated=1$`));
  const title = `Threads ${id} (game)`;
  await expect(page.locator(`iframe[title="${title}"]`)).toHaveAttribute(
    'src',
    new RegExp(`^${GAMES_ORIGIN.replace(/\./g, '\\.')}/${id}/1/`),
  );
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  const frame = page.frameLocator(`iframe[title="${title}"]`);
  await expect
    .poll(() => frame.locator('body').evaluate(() => document.title), { timeout: 15_000 })
    .toMatch(/done=1/);
  expect(await frame.locator('body').evaluate(() => window.crossOriginIsolated)).toBe(true);
  expect(await frame.locator('body').evaluate(() => document.title)).toMatch(/sab=ok/);
  // the site's side of the viewer passes axe (the fixture game's own page is not the site's)
  const axe = await new AxeBuilder({ page }).exclude('iframe').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id),
  ).toEqual([]);

  // Close returns to the list, a page that is not isolated
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole('heading', { name: 'Games', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);

  // a link without isolated=1 gets there too
  await page.goto(`/games?play=${id}`);
  await expect(page).toHaveURL(new RegExp(`/games\\?play=${id}&isolated=1$`));
  await expect
    .poll(() => frame.locator('body').evaluate(() => window.crossOriginIsolated), {
      timeout: 15_000,
    })
    .toBe(true);
});
