import type { Page } from '@playwright/test';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

/*
 * The admin's Content section: the owner adds, orders and publishes gallery projects
 * and tutorials in the browser; guests see only what is published, in the owner's order; a
 * tutorial's markdown never runs a script.
 */

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

/** Deletes what a test added through the admin API (the e2e server is shared by every spec). */
async function deleteThrough(page: Page, section: 'gallery' | 'tutorials', title: string) {
  const answer = await page.request.get(`/api/admin/${section}`);
  const body = (await answer.json()) as Record<string, Array<{ id: string; title: string }>>;
  const items = body[section === 'gallery' ? 'projects' : 'tutorials'] ?? [];
  for (const item of items.filter((candidate) => candidate.title === title)) {
    await page.request.delete(`/api/admin/${section}/${item.id}`, {
      headers: { origin: new URL(page.url()).origin },
    });
  }
}

test('the admin adds a project, moves it to the top by keyboard and publishes it: guests see it first', async ({
  page,
  admin,
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Jam entry ${uniqueName('p')}`;
  await signInAsAdmin(page, admin);
  try {
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Content' })
      .click();
    await expect(page).toHaveURL(/\/admin\/content\/gallery$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Gallery projects' });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Add project' }).click();
    const form = page.getByRole('form', { name: 'Add a project' });
    // an empty form says what each field needs, next to the field
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(form.getByText('Title is required')).toBeVisible();
    await expect(form.getByLabel('Title')).toBeFocused();
    await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description', { exact: true }).fill('Made in 48 hours for a game jam.');
    await form
      .getByLabel('Card thumbnail', { exact: true })
      .fill('/assets/gallery/proto-arena.webp');
    await form.getByLabel('Repository link (optional)').fill('javascript:alert(1)');
    // a new project has no items: one by address is added on purpose
    await expect(form.getByRole('listitem')).toHaveCount(0);
    await form.getByRole('button', { name: 'Add item' }).click();
    const item = form.getByRole('listitem', { name: 'Item 1' });
    await item.getByLabel('Type').selectOption('image');
    await item.getByLabel('Source').fill('/assets/gallery/proto-lobby.webp');
    await item.getByLabel('Description (optional)').fill('The jam build.');
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      form.getByText('Repository link (optional) must be an http(s) address'),
    ).toBeVisible();
    await form.getByLabel('Repository link (optional)').fill('https://github.com/owner/jam');
    // the preview is the public gallery's own card
    await form.getByRole('button', { name: 'Preview' }).click();
    await expect(
      form
        .getByRole('region', { name: 'Preview' })
        .getByRole('link', { name: `${title} View Details` }),
    ).toBeVisible();
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The project was added as a draft.' }),
    ).toBeVisible();

    const rows = list.getByRole('listitem');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(3)).toContainText(title);
    await expect(rows.nth(3)).toContainText('Draft');

    // a draft is nowhere for guests: not on /Gallery, not in GET /api/gallery
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto('/Gallery');
    await expect(guestPage.getByRole('link', { name: /View Details$/ })).toHaveCount(3);
    const draftAnswer = await guestPage.request.get('/api/gallery');
    expect(JSON.stringify(await draftAnswer.json())).not.toContain(title);

    // to the top by keyboard: focus the handle, ArrowUp three times; each move is announced
    const handle = page.getByRole('button', { name: new RegExp(`^Reorder ${title}`) });
    await handle.focus();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByText(`Moved ${title} to position 3 of 4.`)).toBeAttached();
    await expect(handle).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(page.getByText(`Moved ${title} to position 1 of 4.`)).toBeAttached();
    await expect(rows.nth(0)).toContainText(title);
    await expect(handle).toBeFocused();

    await page.getByRole('button', { name: `Publish ${title}` }).click();
    await expect(rows.nth(0)).toContainText('Published');
    // the order and status were saved: a reload shows them
    await page.reload();
    await expect(list.getByRole('listitem').nth(0)).toContainText(title);
    await expect(list.getByRole('listitem').nth(0)).toContainText('Published');

    await guestPage.goto('/Gallery');
    const cards = guestPage.getByRole('link', { name: /View Details$/ });
    await expect(cards).toHaveCount(4);
    await expect(cards.nth(0)).toHaveAccessibleName(`${title} View Details`);
    await cards.nth(0).click();
    await expect(guestPage.getByRole('heading', { name: title })).toBeVisible();
    await expect(guestPage.getByText('The jam build.')).toBeVisible();
    await expect(guestPage.getByRole('link', { name: 'View Repository' })).toHaveAttribute(
      'href',
      'https://github.com/owner/jam',
    );
    await guest.close();

    // its history says who did what
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toContainText('Published');
    await expect(history).toContainText(`Added '${title}' as a draft`);

    // delete asks first
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(
      'Are you sure you want to delete this project? This action cannot be undone.',
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect(list).not.toContainText(title);

    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsPhoneWidth(page);
  } finally {
    await deleteThrough(page, 'gallery', title);
  }
});

test('a tutorial with a script, an image with onerror and a javascript: link renders none of them', async ({
  page,
  admin,
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Unsafe markdown ${uniqueName('t')}`;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signInAsAdmin(page, admin);
  try {
    await page.goto('/admin/content/tutorials');
    await page.getByRole('button', { name: 'Add tutorial' }).click();
    const form = page.getByRole('form', { name: 'Add a tutorial' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Section').selectOption('C++ Tutorials');
    await form.getByLabel('Type').selectOption('Markdown');
    await form
      .getByLabel('Content')
      .fill(
        [
          'Safe **text** first.',
          '',
          '<script>alert("script")</script>',
          '',
          '<img src=x onerror=alert(1)>',
          '',
          '[x](javascript:alert(1)) and [docs](https://en.cppreference.com/)',
        ].join('\n'),
      );
    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = form.getByRole('region', { name: 'Preview' });
    await expect(preview.getByText('Safe text first.')).toBeVisible();
    await form.getByRole('button', { name: 'Add tutorial' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The tutorial was added as a draft.' }),
    ).toBeVisible();
    await page.getByRole('button', { name: `Publish ${title}` }).click();
    await expect(
      page
        .getByRole('list', { name: 'Tutorials' })
        .getByRole('listitem')
        .filter({ hasText: title }),
    ).toContainText('Published');

    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    guestPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await guestPage.goto('/Tutorials');
    const article = guestPage.getByRole('article', { name: title });
    await article.scrollIntoViewIfNeeded();
    await expect(article.getByText('Safe text first.')).toBeVisible();
    // raw HTML shows as text; nothing of it became an element
    await expect(article.getByText('<img src=x onerror=alert(1)>')).toBeVisible();
    expect(await article.locator('script, img, [onerror]').count()).toBe(0);
    expect(await article.locator('a[href^="javascript" i]').count()).toBe(0);
    await expect(article.getByRole('link', { name: 'docs' })).toHaveAttribute(
      'href',
      'https://en.cppreference.com/',
    );
    await expect(article.getByText('x', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(guestPage);
    // the spec's C++ code box is still there
    await expect(guestPage.getByRole('button', { name: 'Run' }).first()).toBeVisible();
    await guest.close();
    expect(dialogs).toEqual([]);
  } finally {
    await deleteThrough(page, 'tutorials', title);
  }
});

test('an iframe tutorial needs an https: address', async ({ page, admin }) => {
  await signInAsAdmin(page, admin);
  await page.goto('/admin/content/tutorials');
  await page.getByRole('button', { name: 'Add tutorial' }).click();
  const form = page.getByRole('form', { name: 'Add a tutorial' });
  await form.getByLabel('Title').fill('Refused frame');
  await form.getByLabel('Type').selectOption('Embedded page (iframe)');
  await form.getByLabel('Frame address').fill('http://blueprintue.com/render/x/');
  await form.getByRole('button', { name: 'Add tutorial' }).click();
  await expect(form.getByText('Frame address must be an https: address')).toBeVisible();
  await expect(form.getByLabel('Frame address')).toBeFocused();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('list', { name: 'Tutorials' })).not.toContainText('Refused frame');
});

test("the owner renames the site and rewrites the home page's intro: guests see it on the next load", async ({
  page,
  admin,
  browser,
}) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, admin);
  const before: unknown = await (await page.request.get('/api/admin/site')).json();
  const origin = new URL(page.url()).origin;
  try {
    await page.goto('/admin/content');
    await page
      .getByRole('navigation', { name: 'Content' })
      .getByRole('link', { name: 'Home & site' })
      .click();
    const form = page.getByRole('form', { name: 'Home and site texts' });
    await expect(form.getByLabel('Site name')).toHaveValue('GameDev Portfolio');
    await expect(form.getByLabel('Home intro title')).toHaveValue('Welcome to my portfolio');
    await form.getByLabel('Home intro title').fill('');
    await form.getByRole('button', { name: 'Save texts' }).click();
    await expect(form.getByText('Home intro title is required')).toBeVisible();
    await expect(form.getByLabel('Home intro title')).toBeFocused();

    await form.getByLabel('Site name').fill('Ada Plays');
    await form.getByLabel('Home intro title').fill('Hello from Ada');
    await form.getByLabel('Home intro text').fill('I make small games about wolves.');
    const galleryCard = form.getByRole('group', { name: 'Card to Gallery' });
    await galleryCard.getByLabel('Text').fill('Everything I made, in pictures.');
    await form.getByRole('button', { name: 'Save texts' }).click();
    await expect(page.getByText('Saved: visitors see the new texts')).toBeVisible();
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      'Changed site name, home intro, home cards',
    );
    await expectNoSeriousA11yViolations(page);

    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto('/');
    await expect(
      guestPage.getByRole('heading', { level: 1, name: 'Hello from Ada' }),
    ).toBeVisible();
    await expect(guestPage.getByText('I make small games about wolves.')).toBeVisible();
    await expect(
      guestPage.getByRole('link', { name: /Gallery Everything I made/ }),
    ).toHaveAttribute('href', '/gallery');
    await expect(
      guestPage.getByRole('banner').getByRole('link', { name: 'Ada Plays' }),
    ).toBeVisible();
    await expect(guestPage).toHaveTitle('Ada Plays');
    await guestPage
      .getByRole('link', { name: /^Tutorials/ })
      .first()
      .click();
    await expect(guestPage).toHaveTitle('Tutorials | Ada Plays');
    await guest.close();
  } finally {
    await page.request.put('/api/admin/site', { data: before, headers: { origin } });
  }
});
