import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';

import { expect, signIn, test, uniqueName } from '../fixtures';
import { E2E_ADMIN } from '../fixtures/constants';

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  status: string;
}

/** The link (from `path`) in the newest message to `to` whose subject matches, from the admin's outbox. */
async function linkFromOutbox(
  admin: APIRequestContext,
  to: string,
  subject: RegExp,
  path: string,
): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const response = await admin.get('/api/admin/mail');
        const outbox = (await response.json()) as OutboxEntry[];
        const message = outbox.find((entry) => entry.to === to && subject.test(entry.subject));
        const match = message ? new RegExp(`https?://\\S+${path}\\S+`).exec(message.text) : null;
        link = match?.[0] ?? '';
        return link;
      },
      { timeout: 10_000 },
    )
    .not.toBe('');
  return link;
}

test.describe('password reset', () => {
  let admin: APIRequestContext;
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    admin = await playwrightRequest.newContext({
      baseURL: String(testInfo.project.use.baseURL),
    });
    const login = await admin.post('/api/auth/login', { data: E2E_ADMIN });
    expect(login.status()).toBe(200);
  });
  test.afterAll(async () => {
    await admin.dispose();
  });

  test('from /login, "Forgot password?" mails a link that sets a new password to sign in with', async ({
    page,
    request,
  }) => {
    const username = uniqueName('reset');
    const email = `${username}@example.com`;
    const oldPassword = 'e2e-old-password';
    const newPassword = 'e2e-new-password-42';
    const registered = await request.post('/api/auth/register', {
      data: { username, email, password: oldPassword },
    });
    expect(registered.status()).toBe(201);

    // the address counts once confirmed: follow the confirmation link from the outbox
    await page.goto(await linkFromOutbox(admin, email, /Confirm your email/, '/confirm-email#'));
    await expect(page.getByText('Your email address is confirmed.')).toBeVisible();

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Username or email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('a link to reset its password');

    await page.goto(await linkFromOutbox(admin, email, /Reset your/, '/reset-password#'));
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password has been reset.')).toBeVisible();

    await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
    await signIn(page, { username, password: newPassword });
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('banner').getByRole('link', { name: new RegExp(username) }),
    ).toBeVisible();

    // the old password no longer signs in
    const oldLogin = await request.post('/api/auth/login', {
      data: { username, password: oldPassword },
    });
    expect(oldLogin.status()).toBe(401);
  });
});
