import { devices } from '@playwright/test';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
} from '../fixtures';

test('an admin finds a user, changes the role, inspects the device and deletes the account', async ({
  page: adminPage,
  admin,
  browser,
}) => {
  // a long walk through two browsers, with accessibility checks on the way
  test.slow();
  // the member signs in on a phone: that is the device the admin should see
  const phone = await browser.newContext({ ...devices['iPhone 13'] });
  try {
    const memberPage = await phone.newPage();
    const member = await registerAccount(phone.request, 'member');
    await signIn(memberPage, member);
    await expect(memberPage).toHaveURL(/\/$/);
    await expect(memberPage.getByRole('banner')).toContainText(member.username);

    await signIn(adminPage, admin, '/login?admin=true&redirect=/admin');
    const users = adminPage.getByRole('region', { name: 'User Management' });
    await expect(users.getByRole('table')).toBeVisible();
    await users.getByLabel('Search users').fill(member.username.toUpperCase());
    const row = users.getByRole('row', { name: new RegExp(member.username) });
    await expect(row).toBeVisible();
    await expect(users.getByRole('rowheader')).toHaveCount(1);
    await expect(users.getByText('1 user', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(adminPage);
    await expectFitsPhoneWidth(adminPage);

    // the row shows the role the server answers; the member sees it on their next load
    const role = row.getByRole('combobox', { name: `Role of ${member.username}` });
    await expect(role).toHaveValue('user');
    await role.selectOption('Subscriber');
    // nothing applies before the admin confirms; then the row says what happened
    await expect(role).toHaveValue('user');
    await adminPage
      .getByRole('dialog', { name: 'Change role' })
      .getByRole('button', { name: 'Change role' })
      .click();
    await expect(role).toHaveValue('subscriber');
    await expect(
      adminPage.getByRole('status').filter({ hasText: 'is now Subscriber.' }),
    ).toHaveText(`${member.username} is now Subscriber.`);
    await expect(role).toBeEnabled();
    await memberPage.reload();
    await expect(memberPage.getByRole('banner').getByText('Sub', { exact: true })).toBeVisible();

    await row.getByRole('link', { name: `View Details for ${member.username}` }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/admin/users/${member.id}$`));
    await expect(adminPage.getByRole('heading', { level: 1 })).toHaveText(member.username);
    const device = adminPage.getByRole('region', { name: 'Device Information' });
    await expect(device).toContainText('mobile');
    await expect(device).toContainText('iOS');
    await expect(device).toContainText('Safari');
    await expect(device).toContainText('390 × 844');
    await expect(adminPage.getByRole('region', { name: 'Game Statistics' })).toContainText(
      'No game statistics available',
    );
    await expect(adminPage.getByRole('region', { name: 'Achievements' })).toContainText(
      'No achievements unlocked',
    );
    await expect(adminPage.getByRole('region', { name: 'History' })).toContainText(
      `${admin.username} changed ${member.username}'s role from user to subscriber`,
    );
    await expectNoSeriousA11yViolations(adminPage);
    await expectFitsPhoneWidth(adminPage);

    // Cancel first: nothing happens; then confirm
    await adminPage.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Delete Account' });
    await expect(dialog).toContainText(
      'Are you sure you want to delete this user? This action cannot be undone.',
    );
    await expectNoSeriousA11yViolations(adminPage);
    await adminPage.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await adminPage.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(adminPage).toHaveURL(/\/admin$/);
    await expect(
      adminPage.getByText(`User deleted successfully: ${member.username}`),
    ).toBeVisible();

    // the member's open page becomes a guest's on its next request
    await memberPage.getByRole('banner').getByRole('link', { name: 'Games' }).click();
    await expect(memberPage.getByRole('banner')).toContainText('Guest');
    await memberPage.getByRole('banner').getByRole('link', { name: 'Login' }).click();
    await expect(
      memberPage.getByText('Your session has ended. Please log in again.'),
    ).toBeVisible();
    await memberPage.goto('/profile');
    await expect(memberPage).toHaveURL(/\/login$/);
  } finally {
    await phone.close();
  }
});

test('the admin cannot delete their own account', async ({ page, admin }) => {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  const users = page.getByRole('region', { name: 'User Management' });
  await users.getByLabel('Search users').fill(admin.username);
  await users
    .getByRole('row', { name: new RegExp(admin.username) })
    .getByRole('link', { name: /View Details/ })
    .click();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Account' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('alert')).toHaveText('You cannot delete your own account');
  await expect(page).toHaveURL(/\/admin\/users\//);
});

test("an unknown or malformed user id says 'No such user' with a link back", async ({
  page,
  admin,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-user-id']) {
    await page.goto(`/admin/users/${id}`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('No such user');
    await expect(page.getByText(/must be a valid user id/)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await alert.getByRole('link', { name: 'Back to User Management' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  }
});

test('a subscription an admin grants shows as active, granted by an admin, with no end date', async ({
  page,
  admin,
  browser,
}) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const memberPage = await phone.newPage();
    const member = await registerAccount(phone.request, 'granted');
    await signIn(memberPage, member, '/login?redirect=/profile');
    await expect(memberPage).toHaveURL(/\/profile$/);
    const ownCard = memberPage.getByRole('region', { name: 'Subscription Details' });
    await expect(ownCard).toContainText('None');

    await signIn(page, admin, '/login?admin=true&redirect=/admin');
    const users = page.getByRole('region', { name: 'User Management' }).first();
    await users.getByLabel('Search users').fill(member.username);
    const row = users.getByRole('row', { name: new RegExp(member.username) });
    await row
      .getByRole('combobox', { name: `Role of ${member.username}` })
      .selectOption('Subscriber');
    await page
      .getByRole('dialog', { name: 'Change role' })
      .getByRole('button', { name: 'Change role' })
      .click();
    await expect(row.getByRole('combobox', { name: `Role of ${member.username}` })).toHaveValue(
      'subscriber',
    );
    const today = await page.evaluate(() => new Date().toLocaleDateString());

    await memberPage.reload();
    await expect(ownCard.locator('.status-badge')).toHaveText('Active');
    await expect(ownCard).toContainText('Granted by an admin');
    await expect(ownCard).toContainText(today);
    await expect(ownCard).toContainText('No end date');
    await expect(ownCard).not.toContainText('Unknown');
    await expectNoSeriousA11yViolations(memberPage);

    await page.goto(`/admin/users/${member.id}`);
    const detailCard = page.getByRole('region', { name: 'Subscription Details' });
    await expect(detailCard.locator('.status-badge')).toHaveText('Active');
    await expect(detailCard).toContainText('Granted by an admin');
    await expect(detailCard).toContainText(today);
    await expect(detailCard).toContainText('No end date');
    await expectNoSeriousA11yViolations(page);

    // the admin gives the grant an end, by keyboard: the member sees it on their profile
    const ends = detailCard.getByLabel('Granted subscription ends on');
    await ends.fill('2031-05-20');
    await ends.press('Enter');
    await expect(detailCard.getByRole('status')).toHaveText('End date saved');
    const endDay = await page.evaluate(() => new Date(2031, 4, 20).toLocaleDateString());
    await expect(detailCard).toContainText(endDay);
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      `${admin.username} set ${member.username}'s granted subscription to end on ${endDay}`,
    );
    await expectNoSeriousA11yViolations(page);
    await memberPage.reload();
    await expect(ownCard).toContainText(endDay);
  } finally {
    await phone.close();
  }
});
