import type { Locator, Page } from '@playwright/test';

import { expect, expectNoSeriousA11yViolations, registerAccount, signIn, test } from '../fixtures';

const PHONE = { width: 390, height: 844 };

/** Every cell of the table lies inside the page's width, and its region needs no sideways scroll. */
async function expectWhollyInView(page: Page, table: Locator): Promise<void> {
  const { cellsOutside, isScrollable, cellCount } = await table.evaluate((element) => {
    const pageWidth = document.documentElement.clientWidth;
    const cells = Array.from(element.querySelectorAll('tbody th, tbody td'));
    const outside = cells
      .filter((cell) => {
        const box = cell.getBoundingClientRect();
        return box.width === 0 || box.left < 0 || box.right > pageWidth + 0.5;
      })
      .map((cell) => cell.textContent);
    const region = element.closest('.table-scroll');
    return {
      cellsOutside: outside,
      isScrollable: region ? region.scrollWidth > region.clientWidth + 1 : false,
      cellCount: cells.length,
    };
  });
  expect(cellCount).toBeGreaterThan(0);
  expect(cellsOutside).toEqual([]);
  expect(isScrollable).toBe(false);
}

test('on a phone the admin tables stack, every column readable, and the chart labels legible', async ({
  page,
  admin,
  request,
}) => {
  test.slow();
  await registerAccount(request, 'phone');
  expect(
    (await request.post('/api/track-game-click', { data: { gameId: 'Pong' } })).status(),
  ).toBeLessThan(500);
  await page.setViewportSize(PHONE);
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // Active Users: the admin's own row, Last Seen included
  const activeUsers = page.getByRole('table', { name: 'Active Users' });
  const ownRow = activeUsers.getByRole('row', { name: new RegExp(admin.username) });
  await expect(ownRow).toBeVisible();
  await expect(ownRow.getByText('Last Seen')).toHaveCount(0); // the label is drawn, not text
  await expect(ownRow.locator('td[data-label="Last Seen"] time')).toBeVisible();
  await expectWhollyInView(page, activeUsers);

  // Daily Breakdown: all five values of a day
  const breakdown = page.getByRole('table', { name: 'Daily Breakdown' });
  await expect(breakdown.getByRole('rowheader').first()).toBeVisible();
  for (const label of ['New Users', 'Total Users', 'Peak Concurrent', 'Daily Total']) {
    await expect(breakdown.locator(`td[data-label="${label}"]`).first()).toBeVisible();
  }
  await expectWhollyInView(page, breakdown);

  // User Management: sortable on a phone, View Details reachable and working
  const users = page.getByRole('region', { name: 'User Management' }).first();
  await users.getByLabel('Search users').fill(admin.username);
  const adminRow = users.getByRole('row', { name: new RegExp(admin.username) });
  await expect(adminRow).toBeVisible();
  await expect(users.getByRole('button', { name: /Created At/ })).toBeVisible();
  await expectWhollyInView(page, users.getByRole('table'));
  const details = adminRow.getByRole('link', { name: `View Details for ${admin.username}` });
  await details.scrollIntoViewIfNeeded();
  await expect(details).toBeInViewport();

  // the chart is drawn at the phone's width: labels at their size, none overlapping
  const labels = await page.locator('.chart__x-label').evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { left: box.left, right: box.right, height: box.height };
    }),
  );
  expect(labels.length).toBeGreaterThanOrEqual(1);
  for (const [index, label] of labels.entries()) {
    expect(label.height).toBeGreaterThanOrEqual(11);
    const next = labels[index + 1];
    if (next) {
      expect(label.right).toBeLessThanOrEqual(next.left);
    }
  }
  const tickHeight = await page
    .locator('.chart__tick text')
    .first()
    .evaluate((element) => element.getBoundingClientRect().height);
  expect(tickHeight).toBeGreaterThanOrEqual(11);

  await expectNoSeriousA11yViolations(page);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(PHONE.width);

  await details.click();
  await expect(page).toHaveURL(/\/admin\/users\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(admin.username);
});

test('wide screens keep the tables as tables, headers in sight', async ({ page, admin }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  const breakdown = page.getByRole('table', { name: 'Daily Breakdown' });
  await expect(breakdown.getByRole('columnheader', { name: 'Peak Concurrent' })).toBeVisible();
  const activeUsers = page.getByRole('table', { name: 'Active Users' });
  await expect(activeUsers.getByRole('columnheader', { name: 'Last Seen' })).toBeVisible();
});

test('the averages say which days they are taken over, and the breakdown lists exactly those', async ({
  page,
  admin,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  const card = page.locator('.stat-card').filter({ hasText: 'Average Daily Visitors' });
  await expect(card).toContainText(/per day, over the \d+ days? with data/);
  const days = Number((/over the (\d+) day/.exec(await card.innerText()) ?? [])[1]);
  expect(days).toBeGreaterThanOrEqual(1);
  const breakdown = page.getByRole('table', { name: 'Daily Breakdown' });
  await expect(breakdown.getByRole('rowheader')).toHaveCount(days);
  await expect(page.locator('.stat-card').filter({ hasText: 'Average Anonymous' })).toContainText(
    `per day, over the ${days} ${days === 1 ? 'day' : 'days'} with data`,
  );
  await expectNoSeriousA11yViolations(page);
});
