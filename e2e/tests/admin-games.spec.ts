import { type Frame, type Page, request as playwrightRequest } from '@playwright/test';

import {
  engineExport,
  type EngineExportKind,
  zipExport,
} from '../../apps/server/src/test/engine-exports';
import { makeZipWithRawName } from '../../apps/server/src/modules/game-host/test-zips';
import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

const PORT = Number(process.env.E2E_PORT ?? 4300);
/** The games origin on the embedded default: the other loopback name, GAMES_PORT = PORT + 1. */
const GAMES_ORIGIN = `http://localhost:${PORT + 1}`;

/** What the Upload a Build section shows for each fixture export. */
const DETECTED: Record<
  Exclude<EngineExportKind, 'html5'>,
  { engine: string; threads: 'Yes' | 'No' }
> = {
  gamemaker: { engine: 'GameMaker HTML5', threads: 'No' },
  'godot4-threads': { engine: 'Godot 4', threads: 'Yes' },
  godot4: { engine: 'Godot 4', threads: 'No' },
  unity: { engine: 'Unity WebGL', threads: 'No' },
};

/** A 1×1 PNG, for the thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

/** Adds a game through the form on /admin/games and lands on its page. */
async function addGame(page: Page, id: string, title: string) {
  await page.goto('/admin/games');
  await page.getByRole('button', { name: 'Add Game' }).click();
  const form = page.getByRole('region', { name: 'Add a Game' });
  await form.getByLabel('Game id').fill(id);
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill(`${title}, made for the browser tests.`);
  await form.getByLabel('Instructions').fill('Watch the status line.');
  await form.getByLabel('Section').selectOption('Godot');
  await form.getByLabel('Access').selectOption('Public');
  await form.getByRole('button', { name: 'Add Game' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/games/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** Picks the zip with the file button, as a person would. */
async function chooseZip(page: Page, name: string, zip: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a .zip file' }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/zip', buffer: zip });
}

/** Drops the zip on the drop zone, as dragging it from a file manager does. */
async function dropZip(page: Page, name: string, zip: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ fileName, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], fileName, { type: 'application/zip' }));
      return transfer;
    },
    { fileName: name, base64: zip.toString('base64') },
  );
  const zone = page.getByTestId('build-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/**
 * Uploads the chosen zip and waits for the server's answer: live, or for a game not yet
 * published, live once it is.
 */
async function uploadChosen(page: Page, version: number) {
  const upload = page.getByRole('region', { name: 'Upload a Build' });
  await upload.getByRole('button', { name: 'Upload Build' }).click();
  const said = new RegExp(`^Version ${version} uploaded( and live|; publish the game to show it)$`);
  await expect(upload.getByText(said)).toBeVisible({
    timeout: 30_000,
  });
}

/** The value the upload's detection shows for a label (Engine, Needs threads, …). */
function detected(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Upload a Build' })
    .locator('.upload-result dt', { hasText: label })
    .locator('xpath=following-sibling::dd[1]');
}

/** The game's frame on the games origin, once its page reports it is done. */
async function openInViewer(page: Page, gameId: string, isolated: boolean): Promise<Frame> {
  await page.goto(`/games?play=${gameId}`);
  if (isolated) {
    // a threaded build opens in the isolated document of the viewer
    await expect(page).toHaveURL(/isolated=1/);
  }
  const status = page.locator('iframe.game-viewer__frame').contentFrame().locator('#status');
  await expect(status).toContainText('"done":"1"', { timeout: 30_000 });
  const frame = page.frames().find((candidate) => candidate.url().startsWith(GAMES_ORIGIN));
  if (!frame) {
    throw new Error('the game frame is not on the games origin');
  }
  return frame;
}

async function statusOf(frame: Frame): Promise<Record<string, string>> {
  return JSON.parse((await frame.locator('#status').textContent()) ?? '{}') as Record<
    string,
    string
  >;
}

test('an admin publishes a GameMaker, two Godot 4 and a Unity export and each runs in the viewer', async ({
  page,
  admin,
  context,
}) => {
  test.setTimeout(300_000);
  const gameId = uniqueName('e2e_game');
  const title = `Fixture ${gameId}`;
  await signInAsAdmin(page, admin);
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Games' })
    .click();
  await expect(page).toHaveURL(/\/admin\/games$/);
  await addGame(page, gameId, title);

  const kinds = ['gamemaker', 'godot4-threads', 'godot4', 'unity'] as const;
  for (const [index, kind] of kinds.entries()) {
    const fixture = engineExport(kind);
    const zip = await zipExport(fixture.files);
    const version = index + 1;
    await page.goto(`/admin/games/${gameId}`);
    // one drop, the rest through the file button
    if (kind === 'godot4') {
      await dropZip(page, `${kind}.zip`, zip);
    } else {
      await chooseZip(page, `${kind}.zip`, zip);
    }
    await expect(page.getByText(`${kind}.zip`)).toBeVisible();
    await uploadChosen(page, version);
    await expect(detected(page, 'Engine')).toHaveText(DETECTED[kind].engine);
    await expect(detected(page, 'Start page')).toHaveText(fixture.entry);
    await expect(detected(page, 'Files')).toHaveText(String(Object.keys(fixture.files).length));
    await expect(detected(page, 'Needs threads')).toContainText(DETECTED[kind].threads);
    await expect(page.getByTestId('live-version')).toHaveText(`Version ${version}`);
    const versions = page.getByRole('region', { name: 'Versions' });
    await expect(versions.getByRole('listitem')).toHaveCount(version);
    await expect(versions.getByRole('listitem').first()).toContainText('Live');
    await expect(versions.getByRole('listitem').first()).toContainText(`by ${admin.username}`);

    if (version === 1) {
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
    }

    // the build runs in the viewer, from the games origin
    const frame = await openInViewer(page, gameId, fixture.needsThreads);
    const status = await statusOf(frame);
    for (const [key, value] of Object.entries(fixture.expected)) {
      if (key !== 'storage') {
        expect(status[key], `${kind}: ${key}`).toBe(value);
      }
    }
    expect(status.error, kind).toBeUndefined();
    const visits = Number(status.storage);
    expect(visits).toBeGreaterThanOrEqual(1);

    // the game's storage survives a reload (openInViewer loads the page anew: reloading first
    // as well would load the game twice)
    const reloaded = await openInViewer(page, gameId, fixture.needsThreads);
    expect(Number((await statusOf(reloaded)).storage), kind).toBe(visits + 1);

    if (kind === 'godot4-threads') {
      // the frame cannot act as the visitor on the site: the session cookie is not readable
      // there and the site's API refuses (and CORS hides) its cross-origin call
      const session = (await context.cookies(`http://127.0.0.1:${PORT}`)).find(
        (cookie) => cookie.httpOnly,
      );
      expect(session, 'the site keeps a session cookie').toBeDefined();
      const seen = await reloaded.evaluate(async (site) => {
        const cookie = document.cookie;
        const api = await fetch(`${site}/api/auth/current-user`, { credentials: 'include' }).then(
          async (response) => `read ${response.status} ${await response.text()}`,
          () => 'refused',
        );
        return { cookie, api };
      }, `http://127.0.0.1:${PORT}`);
      expect(seen.cookie).not.toContain(session?.value ?? '');
      expect(seen.api).toBe('refused');
    }
  }
});

test('a bad upload shows the server’s reason and changes nothing live; a version comes back in one click', async ({
  page,
  admin,
}) => {
  test.setTimeout(180_000);
  const gameId = uniqueName('e2e_roll');
  const title = `Rollback ${gameId}`;
  await signInAsAdmin(page, admin);
  await addGame(page, gameId, title);
  for (const [index, kind] of (['gamemaker', 'godot4'] as const).entries()) {
    await chooseZip(page, `${kind}.zip`, await zipExport(engineExport(kind).files));
    await uploadChosen(page, index + 1);
  }
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  const upload = page.getByRole('region', { name: 'Upload a Build' });
  const versions = page.getByRole('region', { name: 'Versions' });

  const bad = [
    {
      name: 'not-a-zip.zip',
      zip: Buffer.from('this is not a zip file at all'),
      reason: 'The upload is not a zip file. Upload the exported build as a .zip.',
    },
    {
      name: 'no-start-page.zip',
      zip: await zipExport({ 'notes/readme.txt': Buffer.from('no html here') }),
      reason: /start page|index\.html/i,
    },
    {
      name: 'climbs-out.zip',
      // a zip tool refuses to write '../': the name is patched in the bytes
      zip: await makeZipWithRawName(
        { 'index.html': '<p>x</p>', 'aa/escape.js': '1' },
        'aa/escape.js',
        '../escape.js',
      ),
      reason: /climbs out of the build \(\.\.\/\)/,
    },
  ];
  for (const { name, zip, reason } of bad) {
    await chooseZip(page, name, zip);
    await upload.getByRole('button', { name: 'Upload Build' }).click();
    const alert = upload.getByRole('alert');
    await expect(alert).toHaveText(reason, { timeout: 30_000 });
    // nothing lost: the file is still chosen for another try, and nothing live changed
    await expect(upload.getByText(name)).toBeVisible();
    await expect(upload.getByRole('button', { name: 'Upload Build' })).toBeEnabled();
    await expect(page.getByTestId('live-version')).toHaveText('Version 2');
    await expect(versions.getByRole('listitem')).toHaveCount(2);
  }
  await page.reload();
  await expect(page.getByTestId('live-version')).toHaveText('Version 2');
  await expect(page.getByRole('region', { name: 'Versions' }).getByRole('listitem')).toHaveCount(2);

  // roll back to version 1: the viewer runs the GameMaker build again
  await page
    .getByRole('region', { name: 'Versions' })
    .getByRole('button', { name: 'Make version 1 live' })
    .click();
  await expect(page.getByTestId('live-version')).toHaveText('Version 1');
  await expect(page.getByText('Version 1 is live')).toBeVisible();
  const frame = await openInViewer(page, gameId, false);
  expect(frame.url()).toContain(`/${gameId}/1/`);
  const status = await statusOf(frame);
  expect(status.inline).toBe('ok');
  expect(status.wasm).toBeUndefined();

  // the Godot version is not wanted any more: deleted after confirmation, its files stop serving
  const godotEntry = `${GAMES_ORIGIN}/${gameId}/2/${engineExport('godot4').entry}`;
  expect((await page.request.get(godotEntry)).status()).toBe(200);
  await page.goto(`/admin/games/${gameId}`);
  const remaining = page.getByRole('region', { name: 'Versions' });
  await remaining.getByRole('button', { name: 'Delete version 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Version' });
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(remaining.getByText('Version 2 deleted')).toBeVisible();
  await expect(remaining.getByRole('listitem')).toHaveCount(1);
  await expect(remaining.getByRole('button', { name: /Delete version/ })).toHaveCount(0);
  expect((await page.request.get(godotEntry)).status()).toBe(404);
});

test('the Games section works by keyboard, on a phone, with a thumbnail and API tokens', async ({
  page,
  admin,
}) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page, admin);
  await page.goto('/admin/games');
  await expect(page.getByRole('heading', { level: 1, name: 'Games' })).toBeVisible();
  // the built-in games are listed
  await expect(page.getByRole('link', { name: 'TopDown RogueLike' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // add a game by keyboard alone
  const gameId = uniqueName('e2e_keys');
  const addButton = page.getByRole('button', { name: 'Add Game' });
  await addButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Game id')).toBeFocused();
  await page.keyboard.type(gameId);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard Game');
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/games/${gameId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Keyboard Game' })).toBeVisible();

  // the file button answers Enter
  const chooseButton = page.getByRole('button', { name: 'Choose a .zip file' });
  await chooseButton.focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({
    name: 'html5.zip',
    mimeType: 'application/zip',
    buffer: await zipExport(engineExport('html5').files),
  });
  await page.getByRole('button', { name: 'Upload Build' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Version 1 uploaded; publish the game to show it')).toBeVisible({
    timeout: 30_000,
  });
  await expectNoSeriousA11yViolations(page);

  // edit a field
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByLabel('Section').selectOption('GameMaker');
  await details.getByLabel('Order').fill('42');
  await details.getByRole('button', { name: 'Save Changes' }).click();
  await expect(details.getByText('Changes saved')).toBeVisible();

  // a thumbnail: preview, upload, then served from the games origin
  const thumbnail = page.getByRole('region', { name: 'Thumbnail' });
  await thumbnail
    .getByLabel('Thumbnail image')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await expect(thumbnail.getByRole('img', { name: 'Preview of the new thumbnail' })).toBeVisible();
  await thumbnail.getByRole('button', { name: 'Upload Thumbnail' }).click();
  await expect(thumbnail.getByText('Thumbnail uploaded')).toBeVisible();
  const image = thumbnail.getByRole('img', { name: 'Thumbnail of Keyboard Game' });
  await expect(image).toHaveAttribute(
    'src',
    new RegExp(`^${GAMES_ORIGIN}/${gameId}/thumbnail\\.png`),
  );
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBe(1);

  // on a phone: nothing sideways
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectFitsPhoneWidth(page);
  await page.goto('/admin/games');
  const row = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Keyboard Game' }) });
  await expect(row).toContainText('GameMaker');
  await expect(row).toContainText('Public');
  await expect(row).toContainText('Unpublished');
  await expect(row).toContainText('Version 1');
  await expect(row).toContainText('42');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page);

  // an API token, shown once, publishes from a terminal until it is revoked
  const tokens = page.getByRole('region', { name: 'API Tokens' });
  await tokens.getByLabel('Token name').fill('e2e build script');
  await tokens.getByRole('button', { name: 'Create Token' }).click();
  const shown = tokens.getByTestId('new-token');
  await expect(shown).not.toBeEmpty();
  const token = (await shown.textContent()) ?? '';
  const listed = tokens.getByRole('listitem').filter({ hasText: 'e2e build script' });
  await expect(listed).toContainText('Last used Never');
  await expect(tokens.getByLabel('curl command', { exact: true })).toContainText(
    'Authorization: Bearer $GAMES_PUBLISH_TOKEN',
  );
  // on a phone the command is wider than its box: its lines stay whole (no flag broken) and
  // it scrolls sideways with a scrollbar that takes room, and a Copy button
  const curl = tokens.getByLabel('curl command', { exact: true });
  const layout = await curl.evaluate((pre) => {
    const code = pre.querySelector('code');
    return {
      overflows: pre.scrollWidth > pre.clientWidth,
      // Playwright's headless Chromium hides every scrollbar: the styled one is asked for instead
      scrollbarHeight: getComputedStyle(pre, '::-webkit-scrollbar').height,
      overflowX: getComputedStyle(pre).overflowX,
      // the rows the text takes on screen: one per line when nothing wraps
      lineBoxes: code
        ? new Set(
            Array.from(
              (() => {
                const range = document.createRange();
                range.selectNodeContents(code);
                return range.getClientRects();
              })(),
              (rect) => Math.round(rect.top),
            ),
          ).size
        : 0,
      lines: (code?.textContent ?? '').split('\n').length,
    };
  });
  expect(layout.overflows).toBe(true);
  expect(layout.overflowX).toBe('auto');
  expect(layout.scrollbarHeight).toBe('8px');
  expect(layout.lineBoxes).toBe(layout.lines);
  await expect(tokens.getByRole('button', { name: 'Copy curl command' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const terminal = await playwrightRequest.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  try {
    const zip = await zipExport(engineExport('gamemaker').files);
    const publish = () =>
      terminal.put(`/api/admin/games/${gameId}/build`, {
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
        data: zip,
      });
    const published = await publish();
    expect(published.status(), await published.text()).toBe(201);
    expect(((await published.json()) as { build: { version: number } }).build.version).toBe(2);

    await page.setViewportSize({ width: 1280, height: 800 });
    await tokens.getByRole('button', { name: 'Revoke e2e build script' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke Token' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(listed).toHaveCount(0);
    await expect(tokens.getByTestId('new-token')).toBeHidden();
    expect((await publish()).status()).toBe(401);
  } finally {
    await terminal.dispose();
  }
});

test('at 1280×800 an upload brings its progress bar into view; a stale publish refusal goes with the upload', async ({
  page,
  admin,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const gameId = uniqueName('e2e_fold');
  await signInAsAdmin(page, admin);
  await addGame(page, gameId, `Fold ${gameId}`);
  // publishing before a build is refused
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const status = page.getByRole('region', { name: 'Status' });
  await expect(status.getByRole('alert')).toContainText('Upload a build');

  // the upload waits at the network until the progress bar has been seen
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/admin/games/${gameId}/build*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await chooseZip(page, 'html5.zip', await zipExport(engineExport('html5').files));
  await page.getByRole('button', { name: 'Upload Build' }).click();
  await expect(page.getByRole('progressbar')).toBeInViewport();
  release();
  await expect(page.getByText(`Version 1 uploaded; publish the game to show it`)).toBeVisible({
    timeout: 30_000,
  });
  await expect(status.getByRole('alert')).toBeEmpty();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  await expect(status.getByRole('alert')).toBeEmpty();
});
