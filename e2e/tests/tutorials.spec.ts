import { type Browser, devices, type Locator, type Page } from '@playwright/test';

import { expect, expectFitsPhoneWidth, expectNoSeriousA11yViolations, test } from '../fixtures';

const CPP_TITLE = 'Hello, World! in C++';

function editorBox(page: Page): Locator {
  return page.locator('.cpp-editor');
}

function output(page: Page): Locator {
  return page.getByRole('status', { name: 'Output' });
}

/** Clicks into the code, which brings Monaco in; waits for it to take the caret. */
async function focusEditor(page: Page): Promise<Locator> {
  const input = page.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` });
  await editorBox(page).click();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.cpp-editor .code-preview')).toHaveCount(0);
  await expect(input).toBeFocused();
  return input;
}

/** Replaces the editor's text as a person would: select all, then type. */
async function replaceSource(page: Page, source: string): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  // typed line by line so Monaco's auto-indent and auto-close do not change the program
  await page.keyboard.insertText(source);
}

/** A phone held upright (iPhone 13's size and browser name) in Chromium: touch, mobile viewport. */
async function phonePage(browser: Browser) {
  const { deviceScaleFactor, userAgent } = devices['iPhone 13'];
  const viewport = { width: 390, height: 844 };
  const context = await browser.newContext({
    viewport,
    screen: viewport,
    deviceScaleFactor,
    userAgent,
    isMobile: true,
    hasTouch: true,
  });
  return { context, page: await context.newPage() };
}

async function boxHeight(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  return box ? Math.round(box.height) : -1;
}

test('the page shows both sections; Monaco loads from this site only, in its own chunk', async ({
  page,
  baseURL,
}) => {
  const foreignRequests: string[] = [];
  const cspErrors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    // the blueprint frame is the one foreign page the tutorials embed
    if (!url.startsWith(String(baseURL)) && !url.startsWith('https://blueprintue.com/')) {
      foreignRequests.push(url);
    }
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) {
      cspErrors.push(message.text());
    }
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));

  // hold the editor's chunk back to see the loading text
  let releaseEditor: () => void = () => undefined;
  const editorHeld = new Promise<void>((resolve) => {
    releaseEditor = resolve;
  });
  await page.route(/\/assets\/cpp-editor-[^/]*\.js$/, async (route) => {
    await editorHeld;
    await route.continue();
  });

  const response = await page.goto('/Tutorials');
  // the games origin sits among the frame sources too
  expect(response?.headers()['content-security-policy']).toMatch(
    /frame-src 'self' (\S+ )?https:\/\/www\.youtube\.com/,
  );
  expect(response?.headers()['content-security-policy']).toContain('https://blueprintue.com');
  await expect(page.getByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'C++ Tutorials' })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Unreal Engine Tutorials' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveText([
    CPP_TITLE,
    'Unreal Blueprint Example',
    'The Unreal Multiplayer Framework',
  ]);
  // the sample shows at once as highlighted text; the editor's code loads when reached for
  await expect(editorBox(page).locator('.cpp-keyword').first()).toHaveText('#include');
  await expect(editorBox(page)).toContainText('Hello, World!');
  await editorBox(page).click();
  await expect(editorBox(page).getByText('Loading...')).toBeVisible();
  releaseEditor();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(editorBox(page).getByText('Loading...')).toHaveCount(0);
  await expect(page.locator('.cpp-editor .monaco-editor.vs')).toBeVisible(); // light theme
  await expect(page.locator('.cpp-editor .view-lines')).toContainText('Hello, World!');

  const frame = page.locator('iframe[title="Unreal Blueprint Example"]');
  await expect(frame).toHaveAttribute('src', /^https:\/\/blueprintue\.com\/render\//);

  // pasted code with an invisible character is marked; the editor worker that finds it comes
  // from this site (worker-src 'self')
  await focusEditor(page);
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('int hidden\u200b = 1;');
  await expect(page.locator('.cpp-editor [class*="unicode-highlight"]')).not.toHaveCount(0);
  await expect.poll(() => workers.length).toBeGreaterThan(0);
  for (const url of workers) {
    expect(url.startsWith(String(baseURL))).toBe(true);
  }
  expect(foreignRequests).toEqual([]);
  expect(cspErrors).toEqual([]);
});

test('the home page does not load the editor or the markdown code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') {
      scripts.push(new URL(request.url()).pathname);
    }
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((path) => /cpp-editor|markdown-content|editor\.worker/.test(path))).toBe(
    false,
  );
  expect(scripts.length).toBeGreaterThan(0);
});

test('/Tutorials loads no editor code until the code is reached for', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') {
      scripts.push(new URL(request.url()).pathname);
    }
  });
  await page.goto('/Tutorials');
  await expect(editorBox(page)).toContainText('Hello, World!');
  await page.waitForLoadState('networkidle');
  expect(scripts.some((path) => /cpp-editor|editor\.worker/.test(path))).toBe(false);
  // the markdown below the fold waits until it comes near
  expect(scripts.some((path) => /markdown-content/.test(path))).toBe(false);

  await page.getByRole('button', { name: 'Run' }).focus();
  await page.route('**/run-code', (route) =>
    route.fulfill({ status: 503, json: { error: { code: 'X', message: 'held' } } }),
  );
  await page.keyboard.press('Enter');
  // Run brings the editor in (its markers need it)
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  expect(scripts.some((path) => /cpp-editor/.test(path))).toBe(true);
});

test('typing before the editor arrives is kept, with the caret, and nothing moves', async ({
  page,
}) => {
  let releaseEditor: () => void = () => undefined;
  const editorHeld = new Promise<void>((resolve) => {
    releaseEditor = resolve;
  });
  await page.route(/\/assets\/cpp-editor-[^/]*\.js$/, async (route) => {
    await editorHeld;
    await route.continue();
  });
  await page.goto('/Tutorials');
  const heading = page.getByRole('heading', { level: 3, name: CPP_TITLE });
  const before = await editorBox(page).boundingBox();
  const firstLine = await editorBox(page).locator('.code-preview__text').boundingBox();

  // a click on line 1 (the text area over the highlighted text takes it), then typing there
  const include = await editorBox(page).locator('.cpp-string').first().boundingBox();
  await page.mouse.click(
    (include?.x ?? 0) + (include?.width ?? 0) / 2,
    (include?.y ?? 0) + (include?.height ?? 0) / 2,
  );
  await page.keyboard.press('End');
  await page.keyboard.type(' // typed early');
  await expect(editorBox(page).getByText('Loading...')).toBeVisible();
  releaseEditor();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.cpp-editor .code-preview')).toHaveCount(0);
  // Monaco has the text and the caret: typing goes on where it stopped
  await page.keyboard.type('!');
  await expect(page.locator('.cpp-editor .view-line').first()).toHaveText(
    '#include <iostream> // typed early!',
  );

  // the same box, the first line of code in the same place
  expect(await editorBox(page).boundingBox()).toEqual(before);
  const monacoFirstLine = await page.locator('.cpp-editor .view-line').first().boundingBox();
  expect(Math.round(monacoFirstLine?.y ?? 0)).toBe(Math.round(firstLine?.y ?? -1));
  expect(Math.abs((monacoFirstLine?.x ?? 0) - (firstLine?.x ?? 0))).toBeLessThanOrEqual(2);
  // the heading and the editor keep the card's 1rem gap: the site's shared stylesheet, already
  // in the page, is not added again after the page's own (where it would undo the card's grid)
  const headingBox = await heading.boundingBox();
  expect(Math.round((before?.y ?? 0) - ((headingBox?.y ?? 0) + (headingBox?.height ?? 0)))).toBe(
    16,
  );
});

test('the editor is 20 px per line between 3 and 21 lines', async ({ page }) => {
  await page.goto('/Tutorials');
  await focusEditor(page);
  // the sample: 6 lines and the empty one after its last line break
  await expect.poll(() => boxHeight(editorBox(page))).toBe(7 * 20);

  await replaceSource(page, 'int main() { return 0; }');
  await expect.poll(() => boxHeight(editorBox(page))).toBe(3 * 20);

  await page.keyboard.press('End');
  for (let line = 0; line < 9; line += 1) {
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => boxHeight(editorBox(page))).toBe(10 * 20);
  for (let line = 0; line < 20; line += 1) {
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => boxHeight(editorBox(page))).toBe(21 * 20);
});

test('Run prints the output of the sample, with a running state while it compiles', async ({
  page,
}) => {
  await page.goto('/Tutorials');
  await focusEditor(page);
  // the request is held on its way to the real server, to see the running state
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/run-code', async (route) => {
    await held;
    await route.continue();
  });
  const run = page.getByRole('button', { name: 'Run' });
  await run.click();
  await expect(page.getByRole('button', { name: 'Running...' })).toBeDisabled();
  await expect(output(page)).toContainText('Compiling and running...');
  release();
  await expect(output(page)).toContainText('Hello, World!', { timeout: 30_000 });
  await expect(output(page)).not.toContainText('Error executing code.');
  await expect(run).toBeEnabled();
});

test('a compile error is shown in the output; Ctrl+Enter runs from the editor', async ({
  page,
}) => {
  await page.goto('/Tutorials');
  await replaceSource(
    page,
    '#include <cstdio>\nint main() {\n  std::puts(greeting);\n  return 0;\n}\n',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  // g++ (native sandbox) quotes with ‘’ in a UTF-8 locale; Clang (WebAssembly) has its own words
  await expect(output(page)).toContainText(
    /error: ([‘']greeting[’'] was not declared|use of undeclared identifier 'greeting')/,
    {
      timeout: 30_000,
    },
  );
  await expect(output(page)).not.toContainText('Error executing code.');
  await expect(output(page)).not.toContainText('The program exited');
});

test("a failed run shows 'Error executing code.' with the server's message", async ({ page }) => {
  await page.goto('/Tutorials');
  const run = page.getByRole('button', { name: 'Run' });

  // the server's own refusals, as the runner answers them when it has no sandbox or is full
  await page.route('**/run-code', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          code: 'RUNNER_UNAVAILABLE',
          message: 'Running code is not available on this server: bubblewrap is not installed',
        },
      }),
    }),
  );
  await run.click();
  await expect(output(page)).toContainText('Error executing code.');
  await expect(output(page)).toContainText(
    'Running code is not available on this server: bubblewrap is not installed',
  );

  await page.unroute('**/run-code');
  await page.route('**/run-code', (route) => route.abort('internetdisconnected'));
  await run.click();
  await expect(output(page)).toContainText('Error executing code.');
  await expect(output(page)).toContainText('Could not reach the server.');
});

test('the multiplayer table renders, and a disallowed protocol link is inert', async ({ page }) => {
  await page.goto('/Tutorials');
  const article = page.getByRole('article', { name: 'The Unreal Multiplayer Framework' });
  // rendered as it comes near the viewport
  await article.scrollIntoViewIfNeeded();
  const table = article.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Class',
    'Server instances',
    'Client instances',
    'Network presence',
    'Details',
  ]);
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(10);
  await expect(table.locator('tbody tr td:first-child')).toHaveText([
    'GameInstance',
    'GameMode',
    'GameState',
    'PlayerController',
    'PlayerState',
    'Pawn/Character',
    'HUD',
    'PlayerCameraManager',
    'SpectatorPawn',
  ]);
  for (const cell of await table.locator('tbody td').all()) {
    await expect(cell).not.toBeEmpty();
  }
  await expect(table.getByRole('row', { name: /^GameMode/ })).toContainText('Server only');

  // GFM: task list, strikethrough, footnote, autolink
  await expect(article.getByRole('checkbox')).toHaveCount(4);
  await expect(article.locator('del')).toHaveText('Trust values sent by clients');
  await expect(article.locator('section.footnotes')).toContainText('A Server RPC is only accepted');
  const docs = article.getByRole('link', { name: /^https:\/\/dev\.epicgames\.com\// });
  await expect(docs).toHaveAttribute('rel', 'noopener noreferrer');

  // the launcher link's protocol is not on the allow-list: its text stays, the link does not
  await expect(article.getByText('Epic Games Launcher')).toBeVisible();
  await expect(article.getByRole('link', { name: 'Epic Games Launcher' })).toHaveCount(0);
  await expect(article.locator('a[href^="com.epicgames"]')).toHaveCount(0);
});

test('the tutorials page passes axe, works by keyboard and fits a phone', async ({ page }) => {
  await page.goto('/Tutorials');
  // before the editor (the highlighted text) and with it
  await expectNoSeriousA11yViolations(page);
  await focusEditor(page);
  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);

  // Tab reaches the editor; Ctrl+M lets Tab leave it for the Run button
  await page.route('**/run-code', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        output: 'from keyboard\n',
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        compiled: true,
        diagnostics: [],
        durationMs: 4,
        cached: false,
        backend: 'native',
      }),
    }),
  );
  await page.getByRole('link', { name: 'Tutorials' }).first().focus();
  const editorInput = page.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` });
  for (let step = 0; step < 15; step += 1) {
    if (await editorInput.evaluate((element) => element === document.activeElement)) {
      break;
    }
    await page.keyboard.press('Tab');
  }
  await expect(editorInput).toBeFocused();
  await page.keyboard.press('Control+M');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Run' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(output(page)).toContainText('from keyboard');
});

test('on a phone, tapping around the page after the editor loaded logs no error', async ({
  browser,
}) => {
  const { context, page } = await phonePage(browser);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto('/Tutorials');
  const code = editorBox(page);
  await code.tap();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });

  // taps into the code, on the controls and the page around them, as a phone's user walks it
  const box = await code.boundingBox();
  for (const [x, y] of [
    [60, 30],
    [160, 70],
    [100, 110],
  ] as const) {
    await page.touchscreen.tap((box?.x ?? 0) + x, (box?.y ?? 0) + y);
  }
  await page.getByRole('button', { name: 'Run' }).tap();
  await expect(output(page)).toContainText('Hello, World!', { timeout: 60_000 });
  await page.getByRole('heading', { level: 1, name: 'Tutorials' }).tap();
  await page.getByLabel('Standard input').tap();
  await page.getByRole('heading', { level: 2, name: 'C++ Tutorials' }).tap();
  await page.touchscreen.tap((box?.x ?? 0) + 120, (box?.y ?? 0) + 50);
  await page.getByRole('heading', { level: 3, name: CPP_TITLE }).tap();
  await expect(code.locator('.monaco-editor')).toBeVisible();
  expect(problems).toEqual([]);
  await expectNoSeriousA11yViolations(page);
  await context.close();
});
