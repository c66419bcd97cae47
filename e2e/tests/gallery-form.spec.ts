import { randomBytes } from 'node:crypto';

import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';

import { expect, expectNoSeriousA11yViolations, signIn, test, uniqueName } from '../fixtures';

/*
 * The gallery form works with uploads (issue 42, item 7): "Add a project" starts with no empty
 * item to block saving, an upload takes the place of an item left empty, and the card
 * thumbnail is the first image's unless the admin picks another image of the project or
 * uploads one.
 */

interface SavedProject {
  id: string;
  title: string;
  thumbnail: string;
  media: Array<{ type: string; source: string; thumbnail?: string }>;
}

/** A small PNG of random pixels: bytes no other test uploads, so deleting the project removes it. */
function randomPng(width = 320, height = 200): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

async function openNewProject(page: Page, title: string): Promise<Locator> {
  await page.goto('/admin/content/gallery');
  await page.getByRole('button', { name: 'Add project' }).click();
  const form = page.getByRole('form', { name: 'Add a project' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description', { exact: true }).fill('Made from uploads only.');
  return form;
}

async function uploadItem(form: Locator, name: string, item: number): Promise<void> {
  await form.getByLabel('Media file').setInputFiles({
    name,
    mimeType: 'image/png',
    buffer: await randomPng(),
  });
  // the upload is done when its item holds the stored file
  await expect(
    form.getByRole('listitem', { name: `Item ${item}` }).getByLabel('Source'),
  ).toHaveValue(/^\/media\//, { timeout: 30_000 });
}

async function savedProject(page: Page, title: string): Promise<SavedProject> {
  const answer = await page.request.get('/api/admin/gallery');
  const { projects } = (await answer.json()) as { projects: SavedProject[] };
  const project = projects.find((candidate) => candidate.title === title);
  if (!project) {
    throw new Error(`no project "${title}"`);
  }
  return project;
}

async function deleteProjects(page: Page, titles: readonly string[]) {
  const answer = await page.request.get('/api/admin/gallery');
  const { projects } = (await answer.json()) as { projects: SavedProject[] };
  for (const project of projects.filter((candidate) => titles.includes(candidate.title))) {
    await page.request.delete(`/api/admin/gallery/${project.id}`, {
      headers: { origin: new URL(page.url()).origin },
    });
  }
}

test('a project made of uploads saves at once, its card showing the first image', async ({
  page,
  admin,
}) => {
  test.setTimeout(120_000);
  const title = `Uploads ${uniqueName('g')}`;
  await signInAsAdmin(page, admin);
  try {
    const form = await openNewProject(page, title);
    // no empty "Item 1" waiting to fail with "Source is required"
    await expect(form.getByRole('listitem', { name: 'Item 1' })).toHaveCount(0);
    await expect(form.getByText('No items yet')).toBeVisible();
    // even an item added and left empty is taken over by the upload
    await form.getByRole('button', { name: 'Add item' }).click();
    await expect(form.getByRole('listitem', { name: 'Item 1' })).toBeVisible();
    await uploadItem(form, 'first.png', 1);
    await uploadItem(form, 'second.png', 2);
    await expect(form.getByRole('listitem', { name: 'Item 3' })).toHaveCount(0);
    const firstThumbnail = await form
      .getByRole('listitem', { name: 'Item 1' })
      .getByLabel('Thumbnail (optional)')
      .inputValue();
    expect(firstThumbnail).toMatch(/^\/media\//);

    // the card thumbnail is the first image's until another is picked, and says so
    const cardField = form.getByLabel('Card thumbnail', { exact: true });
    await expect(cardField).toHaveValue('');
    await expect(cardField).toHaveAttribute('placeholder', firstThumbnail);
    await expect(form.getByRole('img', { name: 'The card thumbnail' })).toHaveAttribute(
      'src',
      firstThumbnail,
    );
    await expect(
      form.getByRole('button', { name: 'Use item 1 as the card thumbnail' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousA11yViolations(page);

    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The project was added as a draft.' }),
    ).toBeVisible();
    const saved = await savedProject(page, title);
    expect(saved.thumbnail).toBe(firstThumbnail);
    expect(saved.media.map((item) => item.type)).toEqual(['image', 'image']);
  } finally {
    await deleteProjects(page, [title]);
  }
});

test('the admin picks another image of the project for the card, or uploads one', async ({
  page,
  admin,
}) => {
  test.setTimeout(120_000);
  const picked = `Picked ${uniqueName('g')}`;
  const uploaded = `Own card ${uniqueName('g')}`;
  await signInAsAdmin(page, admin);
  try {
    let form = await openNewProject(page, picked);
    await uploadItem(form, 'one.png', 1);
    await uploadItem(form, 'two.png', 2);
    const secondThumbnail = await form
      .getByRole('listitem', { name: 'Item 2' })
      .getByLabel('Thumbnail (optional)')
      .inputValue();
    // by keyboard: the picker's buttons are in the Tab order and pressed with Enter
    const useSecond = form.getByRole('button', { name: 'Use item 2 as the card thumbnail' });
    await useSecond.focus();
    await page.keyboard.press('Enter');
    await expect(useSecond).toHaveAttribute('aria-pressed', 'true');
    await expect(
      form.getByRole('button', { name: 'Use item 1 as the card thumbnail' }),
    ).toHaveAttribute('aria-pressed', 'false');
    await expect(form.getByLabel('Card thumbnail', { exact: true })).toHaveValue(secondThumbnail);
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The project was added as a draft.' }),
    ).toBeVisible();
    expect((await savedProject(page, picked)).thumbnail).toBe(secondThumbnail);

    // a picture for the card alone, uploaded beside the field
    form = await openNewProject(page, uploaded);
    await uploadItem(form, 'item.png', 1);
    await form.getByLabel('Card thumbnail file').setInputFiles({
      name: 'card.png',
      mimeType: 'image/png',
      buffer: await randomPng(600, 315),
    });
    const cardField = form.getByLabel('Card thumbnail', { exact: true });
    await expect(cardField).toHaveValue(/^\/media\//, { timeout: 30_000 });
    const cardThumbnail = await cardField.inputValue();
    await expect(form.getByRole('img', { name: 'The card thumbnail' })).toHaveAttribute(
      'src',
      cardThumbnail,
    );
    // the upload is the card's only, not an item of the project
    await expect(form.getByRole('listitem', { name: 'Item 2' })).toHaveCount(0);
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The project was added as a draft.' }),
    ).toBeVisible();
    const saved = await savedProject(page, uploaded);
    expect(saved.thumbnail).toBe(cardThumbnail);
    expect(saved.media).toHaveLength(1);
    expect(saved.media[0]?.thumbnail).not.toBe(cardThumbnail);
  } finally {
    await deleteProjects(page, [picked, uploaded]);
  }
});
