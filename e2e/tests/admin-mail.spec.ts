import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

/*
 * Mail for an admin without SMTP (issue 42, item 8): /admin/mail lists the outbox, a message
 * opens with its text and links, and Resend queues a copy, all by keyboard and on a phone.
 */

test('the admin reads the outbox, opens a message and resends it, by keyboard', async ({
  page,
  admin,
  request,
}) => {
  test.setTimeout(90_000);
  const username = uniqueName('mail');
  const email = `${username}@example.com`;
  // registering with an address mails its confirmation link (kept: the e2e site has no SMTP)
  const registered = await request.post('/api/auth/register', {
    data: { username, email, password: 'e2e-password-123' },
  });
  expect(registered.status()).toBe(201);

  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await nav.getByRole('link', { name: 'Mail' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/mail$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mail' })).toBeVisible();

  const outbox = page.getByRole('table', { name: 'Messages, newest first' });
  const row = outbox.getByRole('row').filter({ hasText: email });
  await expect(async () => {
    // the worker keeps the message a moment after the request: read the list again until then
    await page.reload();
    await expect(row.getByText('Kept in the outbox (no SMTP)')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(row.getByRole('link', { name: /Confirm your email/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await row.getByRole('link', { name: /Confirm your email/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/mail\/[0-9a-f-]{36}$/);
  const firstUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: /Confirm your email/ })).toBeVisible();
  const facts = page.getByRole('region', { name: 'Message' });
  await expect(facts.getByText(email)).toBeVisible();
  await expect(facts.getByText('Kept in the outbox (no SMTP)')).toBeVisible();
  // the confirmation link is a link the admin can follow or copy
  const text = page.getByRole('region', { name: 'Text' });
  const link = text.getByRole('link', { name: /\/confirm-email#token=/ });
  await expect(link).toHaveAttribute(
    'href',
    /^http:\/\/127\.0\.0\.1:\d+\/confirm-email#token=\S+$/,
  );
  const written = await text.locator('pre').textContent();
  expect(written).toContain('/confirm-email#token=');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Resend' }).focus();
  await page.keyboard.press('Enter');
  const notice = page.getByRole('status').filter({ hasText: 'Queued again as a new message.' });
  await expect(notice).toBeVisible();
  await notice.getByRole('link', { name: 'Open the copy' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(firstUrl);
  await expect(page).toHaveURL(/\/admin\/mail\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: /Confirm your email/ })).toBeVisible();
  expect(await text.locator('pre').textContent()).toBe(written);

  // both in the list: the copy first
  await page.getByRole('link', { name: 'All Mail' }).click();
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(2, { timeout: 1000 });
    await expect(row.getByText('Kept in the outbox (no SMTP)')).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  // on a phone the rows stack and nothing needs sideways scrolling
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.first().getByRole('link', { name: /Confirm your email/ })).toBeVisible();
  await expectFitsPhoneWidth(page);
  await row
    .first()
    .getByRole('link', { name: /Confirm your email/ })
    .click();
  await expect(page.getByRole('button', { name: 'Resend' })).toBeVisible();
  await expectFitsPhoneWidth(page);
});

test('an unknown message says so', async ({ page, admin }) => {
  await signIn(
    page,
    admin,
    '/login?admin=true&redirect=/admin/mail/00000000-0000-4000-8000-000000000000',
  );
  await expect(page.getByRole('alert')).toHaveText('No message with that id');
  await expect(page.getByRole('link', { name: 'All Mail' })).toBeVisible();
});
