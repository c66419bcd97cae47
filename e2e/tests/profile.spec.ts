import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
} from '../fixtures';

test('a user adds an email, changes the password and signs in with the new one', async ({
  page,
  account,
  browser,
}) => {
  // a long walk through the page, with accessibility checks on the way
  test.slow();
  // a second browser signed in as the same user: the password change ends that session
  const otherBrowser = await browser.newContext();
  try {
    const otherPage = await otherBrowser.newPage();
    await signIn(otherPage, account);
    await expect(otherPage).toHaveURL(/\/$/);

    await signIn(page, account, '/login?redirect=/profile');
    await expect(page).toHaveURL(/\/profile$/);
    const accountCard = page.getByRole('region', { name: 'Account Information' });
    await expect(accountCard).toContainText(account.username);
    await expect(accountCard).toContainText('Not set');
    await expect(page.getByRole('region', { name: 'Usage Statistics' })).toContainText('0m');
    const subscription = page.getByRole('region', { name: 'Subscription Details' });
    await expect(subscription).toContainText('None');
    await expect(subscription).not.toContainText('Unknown');
    await expectNoSeriousA11yViolations(page);
    await expectFitsPhoneWidth(page);

    // by keyboard: open the email form, type, submit with Enter
    await page.getByRole('button', { name: 'Update Email' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    await page.keyboard.type('not an email');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
    await page.getByLabel('Email', { exact: true }).fill(`${account.username}@example.com`);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Email updated successfully')).toBeVisible();
    await expect(accountCard).toContainText(`${account.username}@example.com`);
    await expect(page.getByRole('button', { name: 'Update Email' })).toHaveCount(0);

    const newPassword = 'a-brand-new-password';
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByLabel('Current Password').fill(account.password);
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(`${newPassword}x`);
    await expect(page.getByText('Passwords do not match').first()).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await expectNoSeriousA11yViolations(page);
    const sessionCookie = async () =>
      (await page.context().cookies()).find((cookie) => cookie.name === '__Host-sid')?.value;
    const tokenBefore = await sessionCookie();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
    // the session token is renewed, as at login
    expect(await sessionCookie()).toBeTruthy();
    expect(await sessionCookie()).not.toBe(tokenBefore);

    // this browser stays signed in; the other one is a guest on its next request
    await page.reload();
    await expect(page.getByRole('banner')).toContainText(account.username);
    await otherPage.getByRole('banner').getByRole('link', { name: 'Games' }).click();
    await expect(otherPage.getByRole('banner')).toContainText('Guest');

    await page
      .getByRole('banner')
      .getByRole('button', { name: /log ?out/i })
      .click();
    await expect(page.getByRole('banner')).toContainText('Guest');
    await signIn(page, account);
    await expect(page.getByRole('alert')).toContainText('Invalid username or password');
    await signIn(page, { username: account.username, password: newPassword });
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByRole('banner')).toContainText(account.username);
  } finally {
    await otherBrowser.close();
  }
});
