import type { Page } from '@playwright/test';

import { expect, signIn, test, uniqueName } from '../fixtures';

/*
 * Markdown nested thousands of levels deep held a tab for minutes in remark (and overflowed its
 * stack): the page shows such a text as plain text and stays responsive.
 */

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

test('a tutorial nested 40000 lists deep shows as text and the page stays responsive', async ({
  page,
  admin,
}) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, admin);
  const origin = new URL(page.url()).origin;
  const title = `Deep lists ${uniqueName('tutorial')}`;
  const content = `${'- '.repeat(40000)}x`;
  const created = await page.request.post('/api/admin/tutorials', {
    headers: { origin },
    data: { title, section: 'cpp', type: 'markdown', content, published: true },
  });
  expect(created.status()).toBe(201);
  const { tutorial } = (await created.json()) as { tutorial: { id: string } };
  try {
    await page.goto('/Tutorials');
    const heading = page.getByRole('heading', { level: 3, name: title });
    await heading.scrollIntoViewIfNeeded();
    // rendered near the viewport: as its plain text, at once
    const text = page.locator(`[aria-labelledby="tutorial-${tutorial.id}"] .markdown__plain`);
    await expect(text).toBeVisible({ timeout: 5000 });
    await expect(text).toContainText('- - - - -');
    await expect(page.locator('.markdown li')).toHaveCount(0);

    // the tab answers: a click on the main navigation moves on within seconds
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Gallery' })
      .click();
    await expect(page).toHaveTitle('My Gallery | GameDev Portfolio', { timeout: 5000 });
  } finally {
    await page.request.delete(`/api/admin/tutorials/${tutorial.id}`, { headers: { origin } });
  }
});
