import type { Page } from '@playwright/test';

import { expect, registerAccount, signIn, test } from '../fixtures';

function statValue(page: Page, label: string) {
  return page
    .locator('.stat-card')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

async function readNumber(page: Page, label: string): Promise<number> {
  return Number(await statValue(page, label).innerText());
}

test('the admin watches a guest arrive and sign in, live, without reloading', async ({
  page: adminPage,
  admin,
  browser,
}) => {
  await signIn(adminPage, admin, '/login?admin=true&redirect=/admin');
  await expect(adminPage.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(adminPage.getByRole('heading', { name: 'Live Activity' })).toBeVisible();
  await expect(adminPage.getByRole('status')).toHaveText('Live');
  // the admin's own heartbeat makes the admin an active registered user
  // the Active Users table (User Management below lists every account)
  const activeUsers = adminPage.getByRole('table', { name: 'Active Users' });
  await expect(activeUsers.getByRole('rowheader', { name: admin.username })).toBeVisible();
  // a marker that a reload would wipe
  await adminPage.evaluate(() => {
    (window as unknown as { e2eMarker: string }).e2eMarker = 'still here';
  });
  const registeredBefore = await readNumber(adminPage, 'Active Registered Users');
  const anonymousBefore = await readNumber(adminPage, 'Anonymous Users');

  const visitor = await browser.newContext();
  try {
    const guestPage = await visitor.newPage();
    await guestPage.goto('/games');
    // pushed over the socket: polling alone would take 30 s, the expectation waits 10
    await expect(statValue(adminPage, 'Anonymous Users')).toHaveText(String(anonymousBefore + 1), {
      timeout: 10_000,
    });
    await expect(adminPage.getByRole('listitem').filter({ hasText: '/games' })).toBeVisible();

    const account = await registerAccount(visitor.request, 'live');
    await signIn(guestPage, account);
    await expect(guestPage).toHaveURL(/\/$/);
    const row = activeUsers.getByRole('row', { name: new RegExp(account.username) });
    await expect(row).toBeVisible({ timeout: 10_000 });
    await expect(row).toContainText('/');
    await expect(statValue(adminPage, 'Active Registered Users')).toHaveText(
      String(registeredBefore + 1),
      {
        timeout: 10_000,
      },
    );
    // the guest became that user: counted once, no longer as a guest
    await expect(statValue(adminPage, 'Anonymous Users')).toHaveText(String(anonymousBefore), {
      timeout: 10_000,
    });
    await expect(statValue(adminPage, 'Total Active Users')).toHaveText(
      String(registeredBefore + 1 + anonymousBefore),
    );
  } finally {
    await visitor.close();
  }
  expect(
    await adminPage.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker),
  ).toBe('still here');
});

test('game clicks and new registrations reach the analytics sections', async ({
  page,
  admin,
  request,
}) => {
  await registerAccount(request, 'stats');
  const gameClick = await request.post('/api/track-game-click', {
    data: { gameId: 'TopDownRogueLike' },
  });
  expect(gameClick.status()).toBe(200);

  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { name: '30-Day Analytics Overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Game Click Analytics' })).toBeVisible();
  expect(await readNumber(page, 'New Users This Month')).toBeGreaterThanOrEqual(1);
  expect(await readNumber(page, 'Total Registered Users')).toBeGreaterThanOrEqual(2);

  const today = new Date().toISOString().slice(0, 10);
  const breakdown = page.getByRole('table', { name: 'Daily Breakdown' });
  await expect(breakdown.getByRole('columnheader')).toHaveText([
    'Date',
    'New Users',
    'Total Users',
    'Peak Concurrent',
    'Daily Total',
  ]);
  await expect(breakdown.getByRole('rowheader', { name: today })).toBeVisible();

  const pongRow = page.getByRole('row', { name: /TopDown RogueLike/ });
  const before = Number((await pongRow.getByRole('cell').first().innerText()).trim());
  expect(before).toBeGreaterThanOrEqual(1);
  // a click while the admin watches moves the table without a reload
  expect(
    (
      await request.post('/api/track-game-click', { data: { gameId: 'TopDownRogueLike' } })
    ).status(),
  ).toBe(200);
  await expect(pongRow.getByRole('cell').first()).toHaveText(String(before + 1), {
    timeout: 10_000,
  });
});
