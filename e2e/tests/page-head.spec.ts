import type { Page } from '@playwright/test';

import { expect, signIn, test, uniqueName } from '../fixtures';

/** What the document's head says about the open page: the canonical link and the social card. */
function readHead(page: Page) {
  return page.evaluate(() => {
    const meta = (selector: string) =>
      document.head.querySelector(`meta[${selector}]`)?.getAttribute('content') ?? null;
    return {
      canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      ogTitle: meta('property="og:title"'),
      ogDescription: meta('property="og:description"'),
      ogUrl: meta('property="og:url"'),
      ogType: meta('property="og:type"'),
      ogImage: meta('property="og:image"'),
      twitterTitle: meta('name="twitter:title"'),
      twitterDescription: meta('name="twitter:description"'),
      twitterImage: meta('name="twitter:image"'),
    };
  });
}

test("moving between pages in the app puts the new page's canonical link and social card in the head, as the server writes them", async ({
  page,
  browser,
  admin,
}) => {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const title = `Head tags ${uniqueName('post')}`;
  const created = await page.request.post('/api/admin/posts', {
    data: {
      title,
      published: true,
      summary: 'A post about the head of the page.',
      body: 'Moving to this post changes the card.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: { slug: string } };

  // what the server writes for each page when it is opened directly
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  try {
    await guest.goto(`/devlog/${post.slug}`);
    await expect(guest.getByRole('heading', { name: title })).toBeVisible();
    const postHead = await readHead(guest);
    expect(postHead.canonical).toMatch(new RegExp(`/devlog/${post.slug}$`));
    await guest.goto('/Gallery');
    await expect(guest.getByRole('heading', { name: 'My Gallery' })).toBeVisible();
    const galleryHead = await readHead(guest);

    // the same pages reached by moving inside the app
    await guest.goto('/devlog');
    await guest.getByRole('link', { name: title }).first().click();
    await expect(guest).toHaveURL(new RegExp(`/devlog/${post.slug}$`));
    await expect(guest.getByRole('heading', { name: title })).toBeVisible();
    await expect.poll(() => readHead(guest)).toEqual(postHead);

    await guest.getByRole('banner').getByRole('link', { name: 'Gallery' }).click();
    await expect(guest.getByRole('heading', { name: 'My Gallery' })).toBeVisible();
    await expect.poll(() => readHead(guest)).toEqual(galleryHead);
  } finally {
    await guestContext.close();
  }
});
