import { readFile } from 'node:fs/promises';

import { devices, type Locator, type Page } from '@playwright/test';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

// collection is batched and the admin's view reads rollups: give the figures time to arrive
const ARRIVAL_TIMEOUT = 30_000;

function breakdown(page: Page, title: string): Locator {
  return page.getByRole('table', { name: title, exact: true });
}

/** The big number of the overview card with this label. */
function figure(page: Page, label: string): Locator {
  return page
    .locator('.stat-card')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('.stat-card__value');
}

/** Does `action` and waits for the heartbeat that carries the page view it makes. */
async function viewed(page: Page, action: () => Promise<unknown>): Promise<void> {
  const heartbeat = page.waitForResponse(
    (response) => response.url().endsWith('heartbeat') && response.request().method() === 'POST',
  );
  await action();
  expect((await heartbeat).ok()).toBe(true);
}

/** Shows the breakdown of its card named `title` (one shows at a time) and answers its table. */
async function showBreakdown(page: Page, title: string): Promise<Locator> {
  const button = page.getByRole('button', { name: title, exact: true });
  if ((await button.count()) > 0) {
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }
  return breakdown(page, title);
}

/** Reloads the analytics page until the breakdown shows the row (the figures are not pushed). */
async function waitForRow(page: Page, title: string, row: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    const table = await showBreakdown(page, title);
    await expect(table.getByRole('link', { name: row })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: ARRIVAL_TIMEOUT, intervals: [1_000, 2_000, 3_000] });
}

test('a phone visitor from a referrer with UTM parameters shows up in the breakdowns, filtered and exported', async ({
  browser,
  admin,
}) => {
  test.setTimeout(120_000);
  const source = uniqueName('src');
  const campaign = uniqueName('camp');
  const medium = 'social';

  // the visitor: a phone, arriving from another site with a campaign's parameters
  const visitor = await browser.newContext({ ...devices['iPhone 13'] });
  try {
    const page = await visitor.newPage();
    await viewed(page, () =>
      page.goto(`/?utm_source=${source}&utm_medium=${medium}&utm_campaign=${campaign}`, {
        referer: 'https://news.example.com/launch-post',
      }),
    );
    await expect(page.getByText(/passionate game developer and designer/)).toBeVisible();
    // route changes in the single-page app count as page views too
    await viewed(page, () =>
      page.getByRole('main').getByRole('link', { name: /Games/ }).first().click(),
    );
    await expect(page).toHaveURL(/\/games$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await viewed(page, () => page.goto('/Gallery'));
    await expect(page.getByRole('heading', { name: 'My Gallery' })).toBeVisible();
  } finally {
    await visitor.close();
  }

  // another visitor, straight in: the filter must leave this one out
  const other = await browser.newContext();
  try {
    const page = await other.newPage();
    await viewed(page, () => page.goto('/Tutorials'));
    await expect(page.getByRole('heading', { name: 'Tutorials', level: 1 })).toBeVisible();
  } finally {
    await other.close();
  }

  // the admin, on a phone too
  const adminContext = await browser.newContext({ ...devices['iPhone 13'], acceptDownloads: true });
  try {
    const page = await adminContext.newPage();
    await signIn(page, admin, '/login?admin=true&redirect=/admin');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Realtime' })).toBeVisible();
    await page.getByRole('link', { name: 'Site Analytics' }).click();
    await expect(page).toHaveURL(/\/admin\/analytics$/);
    await expect(page.getByRole('heading', { name: 'Site Analytics', level: 1 })).toBeVisible();

    // each part of the visit in its breakdown
    await waitForRow(page, 'UTM Sources', source);
    const sources = breakdown(page, 'UTM Sources');
    await expect(
      (await showBreakdown(page, 'UTM Campaigns')).getByRole('link', { name: campaign }),
    ).toBeVisible();
    await expect(
      (await showBreakdown(page, 'UTM Mediums')).getByRole('link', { name: medium }),
    ).toBeVisible();
    await expect(
      (await showBreakdown(page, 'Referrers')).getByRole('link', { name: /news\.example\.com/ }),
    ).toBeVisible();
    await expect(
      breakdown(page, 'Top Pages').getByRole('link', { name: '/games', exact: true }),
    ).toBeVisible();
    await expect(
      (await showBreakdown(page, 'Entry Pages')).getByRole('link', { name: '/', exact: true }),
    ).toBeVisible();
    await expect(
      (await showBreakdown(page, 'Devices')).getByRole('link', { name: /mobile/i }),
    ).toBeVisible();
    await expect(
      (await showBreakdown(page, 'Operating Systems')).getByRole('link', { name: /iOS/i }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectFitsPhoneWidth(page);

    // filter by the campaign's source, by keyboard: the address and every figure follow
    await waitForRow(page, 'Top Pages', '/Tutorials');
    await waitForRow(page, 'UTM Sources', source);
    const visitorsBefore = Number(
      (await figure(page, 'Unique Visitors').innerText()).replace(/,/g, ''),
    );
    expect(visitorsBefore).toBeGreaterThanOrEqual(2);
    await sources.getByRole('link', { name: source }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]utm_source=${source}(&|$)`));
    await expect(
      page.getByRole('link', { name: `Remove filter UTM source: ${source}` }),
    ).toBeVisible();
    await expect(figure(page, 'Unique Visitors')).toHaveText('1');
    await expect(breakdown(page, 'UTM Sources').getByRole('row')).toHaveCount(2);
    await expect(
      breakdown(page, 'Top Pages').getByRole('link', { name: '/Tutorials' }),
    ).toHaveCount(0);

    // the filtered breakdown as CSV holds the visit's row
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV of UTM Sources' }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    expect(csv).toContain(source);
    expect(csv.trim().split('\n')).toHaveLength(2);

    // removing the chip brings the whole view back
    await page.getByRole('link', { name: `Remove filter UTM source: ${source}` }).click();
    await expect(page).not.toHaveURL(/utm_source=/);
    await expect(
      breakdown(page, 'Top Pages').getByRole('link', { name: '/Tutorials' }),
    ).toBeVisible();
  } finally {
    await adminContext.close();
  }
});

/** Contract-shaped answers with long values and many rows, for the page's layout on a phone. */
function fakeAnalytics(url: URL): unknown {
  const totals = {
    visitors: 12_345,
    visits: 15_000,
    pageviews: 48_210,
    bounceRate: 0.42,
    visitSeconds: 185,
    bots: 321,
  };
  const days = Array.from({ length: 30 }, (_, index) => ({
    bucket: `2026-10-${String(index + 1).padStart(2, '0')}`,
    visitors: 300 + ((index * 37) % 120),
    pageviews: 1_200 + ((index * 53) % 400),
  }));
  if (url.pathname.endsWith('/overview')) {
    return {
      range: { from: '2026-10-01', to: '2026-10-30', granularity: 'day' },
      previousRange: { from: '2026-09-01', to: '2026-09-30', granularity: 'day' },
      totals,
      previousTotals: { ...totals, visitors: 10_000, bounceRate: 0.5 },
      series: days,
      previousSeries: days,
    };
  }
  if (url.pathname.endsWith('/realtime')) {
    return {
      visitors: 3,
      pages: [
        { path: '/games', visitors: 2 },
        { path: '/', visitors: 1 },
      ],
    };
  }
  if (url.pathname.endsWith('/games')) {
    return {
      games: [
        {
          gameId: 'TopDownRogueLike',
          title: 'TopDown RogueLike',
          clicks: 1_234,
          lockedClicks: 56,
          plays: 987,
          playSeconds: 123_456,
          averagePlaySeconds: 125,
          playingNow: 4,
        },
      ],
      funnel: [
        { step: 'visit', count: 12_345, dropOff: 0 },
        { step: 'game-click', count: 4_000, dropOff: 0.68 },
        { step: 'sign-up', count: 300, dropOff: 0.93 },
        { step: 'subscription', count: 12, dropOff: 0.96 },
      ],
    };
  }
  const dimension = url.pathname.split('/').pop() ?? 'page';
  return {
    dimension,
    rows: Array.from({ length: 10 }, (_, index) => ({
      value:
        dimension === 'country'
          ? ['DE', 'US', 'FR', 'JP', 'BR', 'IN', 'GB', 'CA', 'AU', 'NL'][index]
          : `/a-rather-long-path/that-goes-on-and-on/${dimension}-${index}?with=query&more=params`,
      visitors: 1_000 - index * 90,
      pageviews: 3_000 - index * 250,
      ...(dimension === 'page' ? { timeSeconds: 42 + index } : {}),
    })),
  };
}

test('the analytics page reads on a 390 px phone, by keyboard and without axe violations', async ({
  browser,
  admin,
}) => {
  test.setTimeout(90_000);
  const phone = await browser.newContext({ ...devices['iPhone 13'] });
  try {
    const page = await phone.newPage();
    await page.route(/\/api\/analytics\//, async (route) => {
      await route.fulfill({ json: fakeAnalytics(new URL(route.request().url())) });
    });
    await signIn(page, admin, '/login?admin=true&redirect=/admin/analytics?period=7d');
    await expect(page.getByRole('heading', { name: 'Site Analytics', level: 1 })).toBeVisible();
    await expect(figure(page, 'Unique Visitors')).toHaveText('12,345');
    await expect(breakdown(page, 'Countries').getByRole('link', { name: 'Germany' })).toBeVisible();
    // each game a block of labelled lines, its name whole on one line
    const games = breakdown(page, 'Plays by Game');
    await expect(games.locator('td[data-label="Playing Now"]').first()).toBeVisible();
    const nameLines = await games.getByRole('rowheader').evaluateAll((elements) =>
      elements.map((element) => {
        const text = document.createRange();
        text.selectNodeContents(element);
        return new Set(Array.from(text.getClientRects(), (line) => Math.round(line.top))).size;
      }),
    );
    expect(nameLines.length).toBeGreaterThan(0);
    expect(nameLines.every((lines) => lines === 1)).toBe(true);
    // the chart drawn at the phone's width: its labels at their size, none overlapping
    const labels = await page.locator('.trend-chart .chart__x-label').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { left: box.left, right: box.right, height: box.height };
      }),
    );
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const [index, label] of labels.entries()) {
      expect(label.height).toBeGreaterThanOrEqual(11);
      expect(label.right).toBeLessThanOrEqual(390);
      const next = labels[index + 1];
      if (next) {
        expect(label.right).toBeLessThanOrEqual(next.left);
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectFitsPhoneWidth(page);
    await expectNoSeriousA11yViolations(page);

    // the period by keyboard, then a custom range that the page refuses with a message
    const period = page.getByRole('combobox', { name: 'Period' });
    await period.focus();
    await period.selectOption('12mo');
    await expect(page).toHaveURL(/period=12mo/);
    await page.getByRole('combobox', { name: 'Period' }).selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To', { exact: true }).fill('2026-03-01');
    await page.getByRole('button', { name: 'Apply' }).press('Enter');
    await expect(page.getByRole('alert')).toHaveText(
      'The end date must not be before the start date.',
    );
    await page.getByLabel('To', { exact: true }).fill('2026-03-20');
    await page.getByRole('button', { name: 'Apply' }).press('Enter');
    await expect(page).toHaveURL(/period=custom&from=2026-03-10&to=2026-03-20/);

    // a row by keyboard filters the view; the chip and Back undo it
    await breakdown(page, 'Countries').getByRole('link', { name: 'Germany' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/country=DE/);
    const chip = page.getByRole('link', { name: 'Remove filter Country: Germany' });
    await expect(chip).toBeVisible();
    await expect(page.getByRole('link', { name: 'Export CSV of Countries' })).toHaveAttribute(
      'href',
      '/api/analytics/breakdown/country?period=custom&from=2026-03-10&to=2026-03-20&country=DE&limit=1000&format=csv',
    );
    await expectNoSeriousA11yViolations(page);
    await chip.focus();
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(/country=DE/);
    await page.goBack();
    await expect(page).toHaveURL(/country=DE/);
    await expect(chip).toBeVisible();
  } finally {
    await phone.close();
  }
});

test('a post, a game in the viewer and a gallery project are pages of their own, and the Pages card says what "other" holds', async ({
  browser,
  admin,
  request,
}) => {
  test.setTimeout(120_000);
  // the owner's new post, and a project of the gallery
  expect((await request.post('/api/auth/login', { data: admin })).status()).toBe(200);
  const title = `Which posts are read ${uniqueName('post')}`;
  const created = await request.post('/api/admin/posts', {
    data: { title, body: 'This post is counted on its own.', published: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { slug } = ((await created.json()) as { post: { slug: string } }).post;
  const gallery = (await (await request.get('/api/gallery')).json()) as {
    projects: Array<{ id: string }>;
  };
  const projectId = gallery.projects[0]?.id ?? '';
  expect(projectId).not.toBe('');
  // this visit's own campaign: the admin's view is narrowed to it
  const campaign = uniqueName('read');

  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await viewed(page, () => page.goto(`/devlog/${slug}?utm_campaign=${campaign}`));
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await viewed(page, () => page.goto('/games'));
    // opening a game is a page view of the game
    await viewed(page, () => page.getByRole('link', { name: 'Co-op Adventure' }).click());
    await expect(page).toHaveURL(/\/games\?play=CoopAdventure$/);
    await viewed(page, () => page.goto(`/Gallery?project=${encodeURIComponent(projectId)}`));
    // a made-up address is counted, as "other"
    await viewed(page, () => page.goto('/devlog/no-such-post-here'));
  } finally {
    await visitor.close();
  }

  const adminContext = await browser.newContext();
  try {
    const page = await adminContext.newPage();
    await signIn(
      page,
      admin,
      `/login?admin=true&redirect=${encodeURIComponent(`/admin/analytics?period=today&utm_campaign=${campaign}`)}`,
    );
    await expect(page.getByRole('heading', { name: 'Site Analytics', level: 1 })).toBeVisible();
    await waitForRow(page, 'Top Pages', `/devlog/${slug}`);
    const top = breakdown(page, 'Top Pages');
    for (const path of [
      '/games',
      '/games?play=CoopAdventure',
      `/Gallery?project=${encodeURIComponent(projectId)}`,
      'other',
    ]) {
      await expect(top.getByRole('link', { name: path, exact: true })).toBeVisible();
    }
    await expect(top.getByRole('row')).toHaveCount(6);
    // what the rows mean, under the table
    const pagesCard = page.getByRole('region', { name: 'Pages' });
    await expect(pagesCard).toHaveAccessibleDescription(
      /^Published posts, games open in the viewer \(\/games\?play=…\) and gallery projects \(\/Gallery\?project=…\) count as pages of their own\. “other” holds the admin’s pages/,
    );
    await expect(pagesCard.getByText(/“other” holds/)).toBeVisible();
    await expect(
      (await showBreakdown(page, 'Entry Pages')).getByRole('link', {
        name: `/devlog/${slug}`,
        exact: true,
      }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectFitsPhoneWidth(page);
  } finally {
    await adminContext.close();
  }
});
