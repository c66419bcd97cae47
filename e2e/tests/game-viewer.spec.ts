import {
  type APIRequestContext,
  type Browser,
  type FrameLocator,
  type Page,
  devices,
} from '@playwright/test';

import { zipExport } from '../../apps/server/src/test/engine-exports';
import { E2E_ADMIN } from '../fixtures/constants';
import { expect, expectNoSeriousA11yViolations, signIn, test, uniqueName } from '../fixtures';

/*
 * The game viewer as a player meets it: opened and played by keyboard
 * alone, the first click reaching a game that checks its window has focus (as GameMaker's
 * runtime does), Escape, a fixed-size game fitted whole into a laptop's and a phone's window,
 * what a touch screen is told, and a frame that cannot take the site's tab elsewhere.
 */

/**
 * A fixture game of a fixed 1200×800 canvas that reports in its title and `#status`:
 * `ready=1`, `keys=<codes>` (keydown), `clicks=<n>`, `error=<message>` (uncaught errors), and,
 * when `escape` is set, `top=blocked` after a click that tried `top.location = …`. A click
 * while its window lacks focus throws, as GameMaker Studio 2's runtime does.
 */
function probeGame(options: { escape: boolean }): Buffer {
  return Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>probe</title>
<style>
  html, body { margin: 0; background: #123; color: #fff; overflow: hidden; }
  canvas { display: block; width: 1200px; height: 800px; background: #264; }
  #status { position: absolute; left: 8px; top: 8px; margin: 0; font: 16px sans-serif; }
</style>
</head>
<body>
<main>
<canvas width="1200" height="800" aria-label="Probe game"></canvas>
<p id="status"></p>
</main>
<script>
  var state = { keys: '', clicks: 0 };
  function report(key, value) {
    state[key] = value;
    var text = Object.keys(state).map(function (k) { return k + '=' + state[k]; }).join(' ');
    document.title = text;
    document.getElementById('status').textContent = text;
  }
  window.addEventListener('error', function (event) { report('error', event.message); });
  window.addEventListener('keydown', function (event) {
    report('keys', (state.keys ? state.keys + ',' : '') + event.code);
  });
  var canvas = document.querySelector('canvas');
  canvas.addEventListener('mousedown', function () {
    if (!document.hasFocus()) {
      // what GameMaker's runtime does with a click while its window has no focus
      var input = undefined;
      return input.length;
    }
    report('clicks', state.clicks + 1);
    ${
      options.escape
        ? `try {
      top.location = location.href + '?took-over=1';
      report('top', 'navigated');
    } catch (error) {
      report('top', 'blocked');
    }`
        : ''
    }
  });
  report('ready', 1);
</script>
</body>
</html>
`);
}

/** Publishes a fixture game through the admin API, with how it is shown. */
async function publishProbe(
  request: APIRequestContext,
  options: { escape: boolean; display?: Record<string, unknown> },
): Promise<{ id: string; title: string }> {
  const id = uniqueName('Probe');
  const title = `Probe ${id}`;
  expect((await request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const created = await request.post('/api/admin/games', {
    data: {
      id,
      title,
      description: 'A fixture game that reports keys, clicks and errors.',
      instructions: 'Press any key; click the canvas.',
      section: 'html5',
      access: 'public',
      ...options.display,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const uploaded = await request.put(`/api/admin/games/${id}/build`, {
    headers: { 'Content-Type': 'application/zip' },
    data: await zipExport({ 'index.html': probeGame(options) }),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const published = await request.patch(`/api/admin/games/${id}`, { data: { published: true } });
  expect(published.status(), await published.text()).toBe(200);
  expect((await request.post('/api/auth/logout', { data: {} })).status()).toBe(200);
  return { id, title };
}

function frameOf(page: Page, title: string): FrameLocator {
  return page.frameLocator(`iframe[title="${title} (game)"]`);
}

/** What the fixture game reports (its document title). */
async function reportOf(page: Page, title: string): Promise<string> {
  return frameOf(page, title)
    .locator('body')
    .evaluate(() => document.title)
    .catch(() => '');
}

/** The card of the game that has focus, or null. */
function focusedCard(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-game-card') ?? null);
}

test('a game is opened, played and closed by keyboard alone, and its first click is not lost', async ({
  page,
  request,
}) => {
  test.slow();
  const { id, title } = await publishProbe(request, { escape: false });
  await page.goto('/games');
  await expect(page.getByRole('button', { name: 'Other HTML5 Games' })).toBeVisible();

  // Tab to the game's card (no mouse), Enter opens it
  let steps = 0;
  while ((await focusedCard(page)) !== id) {
    await page.keyboard.press('Tab');
    steps += 1;
    expect(steps, 'the card is reached with Tab').toBeLessThan(80);
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect.poll(() => reportOf(page, title)).toContain('ready=1');

  // the frame has focus: a key reaches the game without a click
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
  await page.keyboard.press('KeyK');
  await expect.poll(() => reportOf(page, title)).toContain('keys=KeyK');
  // and the first click (the game checks that its window has focus) is not lost
  await frameOf(page, title)
    .locator('canvas')
    .click({ position: { x: 300, y: 200 } });
  await expect.poll(() => reportOf(page, title)).toContain('clicks=1');
  expect(await reportOf(page, title)).not.toContain('error=');

  // the frame is in the Tab order, after the viewer's buttons
  await page.getByRole('button', { name: 'Fullscreen' }).focus();
  await page.keyboard.press('Tab');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('title')))
    .toBe(`${title} (game)`);
  await page.keyboard.press('KeyJ');
  await expect.poll(() => reportOf(page, title)).toContain('keys=KeyK,KeyJ');
  // the site's side of the viewer passes axe, the game's frame included
  await expectNoSeriousA11yViolations(page);

  // Escape (focus on the viewer's side) closes it; focus goes back to the card
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Fullscreen' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/games$/);
  await expect.poll(() => focusedCard(page)).toBe(id);
});

test('a game opened from a scrolled list opens in view, and a fixed 1200×800 game fits a 1280×800 window whole', async ({
  page,
  request,
}) => {
  test.slow();
  const { id, title } = await publishProbe(request, {
    escape: false,
    display: { frame: { mode: 'fixed', width: 1200, height: 800 }, orientation: 'landscape' },
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/games');
  const card = page.locator(`[data-game-card="${id}"]`);
  await card.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect.poll(() => reportOf(page, title)).toContain('ready=1');

  // the game's first click (opened with the mouse, nothing pressed yet) reaches it
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
  await page.mouse.click(640, 500);
  await expect.poll(() => reportOf(page, title)).toContain('clicks=1');
  expect(await reportOf(page, title)).not.toContain('error=');

  // Close and the title are on the screen, not above it
  const close = await page.getByRole('button', { name: 'Close' }).boundingBox();
  expect(close?.y).toBeGreaterThanOrEqual(0);
  await expectWholeGameInView(page, title, { width: 1280, height: 800 });

  // the same game fullscreen: scaled up to the screen, still whole
  await page.getByRole('button', { name: 'Fullscreen' }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.querySelector('iframe') !== null))
    .toBe(true);
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
  await page.evaluate(() => document.exitFullscreen());
});

/**
 * The frame and the game's whole canvas are inside the window; the canvas is not cut. The
 * canvas's place on the screen is worked out from the frame's box on the page (scaled by CSS)
 * and the canvas's box in the game's own window, as Playwright's boxes of elements inside a
 * frame leave out the frame's scale.
 */
async function expectWholeGameInView(
  page: Page,
  title: string,
  viewport: { width: number; height: number },
) {
  const frameBox = await page
    .locator(`iframe[title="${title} (game)"]`)
    .evaluate((frame) => frame.getBoundingClientRect().toJSON() as DOMRect);
  const inside = await frameOf(page, title)
    .locator('canvas')
    .evaluate((canvas) => ({
      canvas: canvas.getBoundingClientRect().toJSON() as DOMRect,
      windowWidth: window.innerWidth,
      windowHeight: window.innerHeight,
    }));
  const scale = frameBox.width / inside.windowWidth;
  const canvasBox = {
    x: frameBox.x + inside.canvas.x * scale,
    y: frameBox.y + inside.canvas.y * scale,
    width: inside.canvas.width * scale,
    height: inside.canvas.height * scale,
  };
  for (const box of [frameBox, canvasBox]) {
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
  }
  // the game's window is its 1200×800, scaled as a whole: the canvas fills the frame
  expect(inside.windowWidth).toBe(1200);
  expect(inside.windowHeight).toBe(800);
  expect(frameBox.height * 1.5).toBeCloseTo(frameBox.width, 0);
  expect(inside.canvas).toMatchObject({ x: 0, y: 0, width: 1200, height: 800 });
  return { frameBox, canvasBox, scale };
}

/** A phone held upright (iPhone 13's size) in Chromium: touch, mobile viewport. */
async function phonePage(browser: Browser) {
  const { deviceScaleFactor, userAgent } = devices['iPhone 13'];
  // the phone's whole screen (devices['iPhone 13'] gives the window under Safari's bars)
  const viewport = { width: 390, height: 844 };
  const context = await browser.newContext({
    viewport,
    screen: viewport,
    deviceScaleFactor,
    userAgent,
    isMobile: true,
    hasTouch: true,
  });
  return { context, page: await context.newPage(), viewport };
}

test('on a phone: a fixed-size game fits whole, keyboard-only games say so, no F10 hint, fullscreen offered in landscape', async ({
  browser,
  request,
}) => {
  test.slow();
  const { title } = await publishProbe(request, {
    escape: false,
    display: { frame: { mode: 'fixed', width: 1200, height: 800 }, orientation: 'landscape' },
  });
  const { context, page, viewport } = await phonePage(browser);
  await page.goto('/games');
  await expect(page.getByRole('button', { name: 'Made With GameMaker' })).toBeVisible();
  // F10 means nothing on a phone
  await expect(page.getByText('F10 toggles game fullscreen.')).toHaveCount(0);
  // a keyboard-only built-in game says so on its card
  const notice = 'This game needs a keyboard: it cannot be played on a touch screen.';
  const rogueCard = page.getByRole('listitem').filter({ hasText: 'TopDown RogueLike' });
  await expect(rogueCard.getByText(notice)).toBeVisible();
  await expect(
    page.getByRole('listitem').filter({ hasText: 'Android Mobile Game' }).getByText(notice),
  ).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // and in the viewer
  await page.getByRole('link', { name: 'TopDown RogueLike' }).tap();
  await expect(page.getByRole('heading', { level: 1, name: 'TopDown RogueLike' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(notice);
  await page.getByRole('button', { name: 'Close' }).tap();

  // the fixed 1200×800 game: whole on the screen, fullscreen in landscape offered
  await page.getByRole('link', { name: title }).tap();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect.poll(() => reportOf(page, title)).toContain('ready=1');
  await expect(page.getByRole('note')).toHaveCount(0);
  await expectWholeGameInView(page, title, viewport);
  const offer = page.getByRole('button', { name: 'Play fullscreen in landscape' });
  await expect(offer).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await offer.tap();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.querySelector('iframe') !== null))
    .toBe(true);
  await page.evaluate(() => document.exitFullscreen());
  await context.close();
});

test('a game cannot take the site’s tab to another page (sandboxed frame)', async ({
  page,
  request,
}) => {
  const { id, title } = await publishProbe(request, { escape: true });
  await page.goto(`/games?play=${id}`);
  await expect.poll(() => reportOf(page, title)).toContain('ready=1');
  const frame = page.locator(`iframe[title="${title} (game)"]`);
  const sandbox = (await frame.getAttribute('sandbox'))?.split(' ') ?? [];
  expect(sandbox).toEqual(
    expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-pointer-lock']),
  );
  expect(sandbox.some((token) => token.startsWith('allow-top-navigation'))).toBe(false);
  // a click gives the game a user activation, which is all an unsandboxed frame needs
  await frameOf(page, title)
    .locator('canvas')
    .click({ position: { x: 100, y: 100 } });
  await expect.poll(() => reportOf(page, title)).toContain('top=blocked');
  await page.waitForTimeout(500);
  expect(new URL(page.url()).pathname).toBe('/games');
  expect(new URL(page.url()).search).toBe(`?play=${id}`);
});

test('the admin sets a game’s frame, touch screens and orientation in the Games section', async ({
  page,
  request,
}) => {
  const { id } = await publishProbe(request, { escape: false });
  await signIn(page, E2E_ADMIN, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await page.goto(`/admin/games/${id}`);
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByLabel('Frame').selectOption('Fixed size, scaled to fit');
  await details.getByLabel('Width (px)').fill('1200');
  await details.getByLabel('Height (px)').fill('800');
  await details.getByLabel('Touch screens').selectOption('Keyboard only');
  await details.getByLabel('Orientation').selectOption('Landscape');
  await details.getByRole('button', { name: 'Save Changes' }).click();
  await expect(details.getByText('Changes saved')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // every visitor's catalogue says so
  const games = (await (await request.get('/api/games')).json()) as {
    games: { id: string; frame: unknown; touch: string; orientation: string }[];
  };
  expect(games.games.find((game) => game.id === id)).toMatchObject({
    frame: { mode: 'fixed', width: 1200, height: 800 },
    touch: 'keyboard-only',
    orientation: 'landscape',
  });
  // and the form shows it again after a reload
  await page.reload();
  await expect(details.getByLabel('Frame')).toHaveValue('fixed');
  await expect(details.getByLabel('Width (px)')).toHaveValue('1200');
  await expect(details.getByLabel('Touch screens')).toHaveValue('keyboard-only');
});
