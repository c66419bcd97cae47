import type { Locator, Page, TestInfo } from '@playwright/test';

import { engineExport, zipExport } from '../../apps/server/src/test/engine-exports';
import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

/*
 * The admin's forms look finished (issue 42, item 9): fields side by side have their controls
 * (inputs and selects alike) at one height on one line, whatever hint one of them has; a
 * checkbox sits right beside its label; textareas have the inputs' border. What a person sees
 * is measured on the page, and each form's screenshot is attached to the report.
 */

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) {
    throw new Error(`${String(locator)} is not shown`);
  }
  return box;
}

/** The controls of these labels are on one line at one height. */
async function expectOneLine(scope: Locator, labels: readonly string[]): Promise<void> {
  const boxes = await Promise.all(
    labels.map((label) => boxOf(scope.getByLabel(label, { exact: true }))),
  );
  const [first] = boxes;
  if (!first) {
    throw new Error('no labels');
  }
  for (const [index, box] of boxes.entries()) {
    const label = labels[index] ?? '';
    expect(Math.abs(box.y - first.y), `${label}: top against ${labels[0]}`).toBeLessThanOrEqual(1);
    expect(Math.abs(box.height - first.height), `${label}: height`).toBeLessThanOrEqual(1);
  }
  // side by side, not stacked
  expect(new Set(boxes.map((box) => Math.round(box.x))).size).toBe(boxes.length);
}

/** A checkbox right before its label's words, on their line. */
async function expectBesideItsLabel(scope: Locator, label: string): Promise<void> {
  const box = scope.getByRole('checkbox', { name: label });
  const words = scope.locator('label').filter({ hasText: label });
  const [boxBox, wordsBox] = [await boxOf(box), await boxOf(words)];
  const gap = wordsBox.x - (boxBox.x + boxBox.width);
  expect(gap, `${label}: space between box and label`).toBeGreaterThanOrEqual(0);
  expect(gap, `${label}: space between box and label`).toBeLessThanOrEqual(16);
  const middle = (b: Box) => b.y + b.height / 2;
  expect(
    Math.abs(middle(boxBox) - middle(wordsBox)),
    `${label}: on the label's line`,
  ).toBeLessThanOrEqual(6);
  // clicking the words ticks the box
  const wasChecked = await box.isChecked();
  await words.click();
  await expect(box).toBeChecked({ checked: !wasChecked });
  await words.click();
  await expect(box).toBeChecked({ checked: wasChecked });
}

async function attachScreenshot(testInfo: TestInfo, name: string, locator: Locator) {
  await testInfo.attach(name, { body: await locator.screenshot(), contentType: 'image/png' });
}

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

test('the game, leaderboard, achievement and upload forms line their fields up; after Publish the upload says the build is live', async ({
  page,
  admin,
}, testInfo) => {
  test.setTimeout(120_000);
  const gameId = uniqueName('e2e_forms');
  const title = `Forms ${gameId}`;
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page, admin);
  try {
    await page.goto('/admin/games');
    await page.getByRole('button', { name: 'Add Game' }).click();
    const addForm = page.getByRole('region', { name: 'Add a Game' });
    await expectOneLine(addForm, ['Section', 'Access', 'Order']);
    await expectOneLine(addForm, ['Touch screens', 'Orientation']);
    await attachScreenshot(testInfo, 'add-game-form', addForm);
    await addForm.getByLabel('Game id').fill(gameId);
    await addForm.getByLabel('Title').fill(title);
    await addForm.getByLabel('Description').fill('A game for the form layout test.');
    await addForm.getByLabel('Instructions').fill('Nothing to do.');
    await addForm.getByRole('button', { name: 'Add Game' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/games/${gameId}$`));

    // the leaderboard form: a hint under Key does not push Name down or stretch it
    const boards = page.getByRole('region', { name: 'Leaderboards' });
    await expectOneLine(boards, ['Key', 'Name']);
    await expectOneLine(boards, ['Better scores are', 'Shown as']);
    await expectOneLine(boards, ['Minimum valid score', 'Maximum valid score']);
    await attachScreenshot(testInfo, 'leaderboard-form', boards);

    const achievements = page.getByRole('region', { name: 'Achievements' });
    await expectOneLine(achievements, ['Achievement key', 'Achievement name', 'Points']);
    await expectBesideItsLabel(achievements, 'Hidden until unlocked');
    await attachScreenshot(testInfo, 'achievement-form', achievements);

    const upload = page.getByRole('region', { name: 'Upload a Build' });
    await expectBesideItsLabel(upload, 'Make this version live as soon as it is uploaded');
    await expectNoSeriousA11yViolations(page);

    // a new game's first build: live, but the game is not published yet; then it is
    const chooser = page.waitForEvent('filechooser');
    await upload.getByRole('button', { name: 'Choose a .zip file' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'html5.zip',
      mimeType: 'application/zip',
      buffer: await zipExport(engineExport('html5').files),
    });
    await upload.getByRole('button', { name: 'Upload Build' }).click();
    const banner = upload.getByText(/^Version 1 uploaded/);
    await expect(banner).toHaveText('Version 1 uploaded; publish the game to show it', {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
    await expect(banner).toHaveText('Version 1 uploaded and live');
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await expect(banner).toHaveText('Version 1 uploaded; publish the game to show it');

    // on a phone the rows become one column and nothing needs sideways scrolling
    await page.setViewportSize({ width: 390, height: 844 });
    const key = await boxOf(boards.getByLabel('Key', { exact: true }));
    const name = await boxOf(boards.getByLabel('Name', { exact: true }));
    expect(name.y).toBeGreaterThan(key.y + key.height);
    await expectFitsPhoneWidth(page);
  } finally {
    await page.request.delete(`/api/admin/games/${gameId}`, {
      headers: { origin: new URL(page.url()).origin },
    });
  }
});

test('the post form lines the Game select up with the publish date, and its textareas look like its inputs', async ({
  page,
  admin,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page, admin);
  await page.goto('/admin/devlog');
  await page.getByRole('link', { name: 'New Post' }).click();
  const form = page.locator('form.post-form');
  await expect(form.getByLabel('Title', { exact: true })).toBeVisible();
  await expectOneLine(form, ['Game', 'Publish date']);
  await expectOneLine(form, ['Image address', 'Image description']);
  const looks = async (label: string) =>
    form.getByLabel(label, { exact: true }).evaluate((control) => {
      const style = getComputedStyle(control);
      return {
        border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
        radius: style.borderTopLeftRadius,
        background: style.backgroundColor,
      };
    });
  const input = await looks('Title');
  for (const label of ['Summary', 'Body (markdown)', 'Game']) {
    expect(await looks(label), label).toEqual(input);
  }
  // the select draws its own arrow, as every form's selects do
  expect(
    await form
      .getByLabel('Game', { exact: true })
      .evaluate((select) => getComputedStyle(select).appearance),
  ).toBe('none');
  await attachScreenshot(testInfo, 'post-form', form);
  await expectNoSeriousA11yViolations(page);
});
