import { parseFeed } from '@rowanmanning/feed-parser';
import type { Page } from '@playwright/test';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

const GAME_ID = 'TopDownRogueLike';
const GAME_TITLE = 'TopDown RogueLike';

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

test('an admin writes and publishes a post about a game; a guest reads it on the devlog, the home page, the game and the feed', async ({
  page,
  browser,
  admin,
}) => {
  const title = `Patch notes ${uniqueName('post')}`;
  await signInAsAdmin(page, admin);
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Devlog' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Devlog' })).toBeVisible();
  await page.getByRole('link', { name: 'New Post' }).click();

  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Game', { exact: true }).selectOption(GAME_ID);
  await page
    .getByLabel('Summary', { exact: true })
    .fill('New rooms, a tougher boss and a faster start.');
  await page
    .getByLabel('Body (markdown)')
    .fill(
      [
        'The dungeon grew **three rooms**.',
        '',
        '| Room | Monsters |',
        '|------|----------|',
        '| Crypt | 12 |',
        '',
        '- [x] New boss',
        '- [ ] Co-op',
      ].join('\n'),
    );
  // the preview shows the draft as the public page will
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(preview.getByRole('cell', { name: 'Crypt' })).toBeVisible();
  await expect(preview.getByRole('link', { name: `Play ${GAME_TITLE}` })).toBeVisible();

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status')).toHaveText('Post published');
  await expect(page.getByText('Published', { exact: true })).toBeVisible();

  // a guest, in a browser of their own
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  try {
    await guest.goto('/devlog');
    await guest.getByRole('link', { name: title }).click();
    await expect(guest.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(guest).toHaveTitle(`${title} | GameDev Portfolio`);
    await expect(guest.getByRole('cell', { name: 'Crypt' })).toBeVisible();
    await expectNoSeriousA11yViolations(guest);
    await expectFitsPhoneWidth(guest);

    // the page as a link preview sees it (the server's HTML, before any script)
    const slug = new URL(guest.url()).pathname.split('/').pop() ?? '';
    const html = await (await guest.request.get(`/devlog/${slug}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${title} | GameDev Portfolio">`);
    expect(html).toContain(
      '<meta property="og:description" content="New rooms, a tougher boss and a faster start.">',
    );
    expect(html).toMatch(/<meta name="twitter:card" content="summary_large_image">/);
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/assets\//);

    // by keyboard: from the top, Tab reaches the post's game link and Enter follows it
    await guest.goto(`/devlog/${slug}`);
    await expect(guest.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // a first load keeps the post's title too (the layout sets the page titles it knows)
    await expect(guest).toHaveTitle(`${title} | GameDev Portfolio`);
    const gameLink = guest.getByRole('link', { name: `Play ${GAME_TITLE}` });
    for (let step = 0; step < 30; step++) {
      await guest.keyboard.press('Tab');
      if (await gameLink.evaluate((element) => element === document.activeElement)) {
        break;
      }
    }
    await expect(gameLink).toBeFocused();
    await guest.keyboard.press('Enter');
    await expect(guest).toHaveURL(new RegExp(`/games\\?play=${GAME_ID}$`));

    // the game's viewer lists it
    const fromDevlog = guest.getByRole('region', { name: 'From the devlog' });
    await expect(fromDevlog.getByRole('link', { name: title })).toBeVisible();

    // the home page lists it among the latest three
    await guest.goto('/');
    const latest = guest.getByRole('region', { name: 'Latest from the devlog' });
    await expect(latest.getByRole('link', { name: title })).toBeVisible();
    await expectNoSeriousA11yViolations(guest);

    // the feed, read by a feed parser
    const feedResponse = await guest.request.get('/feed.xml');
    expect(feedResponse.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseFeed(await feedResponse.text());
    const entry = feed.items.find((item) => item.title === title);
    expect(entry?.url).toMatch(new RegExp(`/devlog/${slug}$`));
    expect(entry?.content).toContain('<td>Crypt</td>');
  } finally {
    await guestContext.close();
  }
});

test('a post with a script, an image error handler and a javascript: link runs none of them', async ({
  page,
  browser,
  admin,
}) => {
  await signInAsAdmin(page, admin);
  const title = `Hostile ${uniqueName('post')}`;
  const created = await page.request.post('/api/admin/posts', {
    data: {
      title,
      published: true,
      body: [
        'Before.',
        '',
        '<script>window.__pwned = "script"</script>',
        '',
        '<img src="/no-such.png" onerror="window.__pwned = \'onerror\'">',
        '',
        '[Click me](javascript:window.__pwned=%22link%22)',
        '',
        '<a href="#" onclick="window.__pwned = \'onclick\'">raw link</a>',
        '',
        'After.',
      ].join('\n'),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: { slug: string } };

  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  const dialogs: string[] = [];
  guest.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    await guest.goto(`/devlog/${post.slug}`);
    const article = guest.getByRole('article');
    await expect(article.getByText('After.')).toBeVisible();
    await expect(article.locator('script, [onerror], [onclick]')).toHaveCount(0);
    await expect(article.locator('a[href^="javascript:" i]')).toHaveCount(0);
    // the link's text stays, inert
    await article.getByText('Click me').click();
    await guest.waitForTimeout(300);
    expect(await guest.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  } finally {
    await guestContext.close();
  }
});
