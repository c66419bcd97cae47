import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { generate } from 'otplib';

import { expect, registerAccount, signIn, test } from '../fixtures';

const PORT = Number(process.env.E2E_PORT ?? 4300);
const BASE_URL = `http://127.0.0.1:${PORT}`;

/**
 * A code for the next 30 s step: the one enabling took is refused as a replay, and the server
 * accepts one step of clock drift.
 */
const nextCode = (secret: string) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function postOk(context: APIRequestContext, path: string, data: unknown) {
  const response = await context.post(path, { data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as unknown;
}

/** A fresh admin (promoted by the suite's admin) with 2FA turned on through the API. */
async function adminWithTwoFactor(
  request: APIRequestContext,
  owner: { username: string; password: string },
) {
  const account = await registerAccount(request, 'e2e_2fa');
  await postOk(request, '/api/auth/login', owner);
  await postOk(request, '/api/update-role', { userId: account.id, role: 'admin' });

  const own = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    await postOk(own, '/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    const { secret } = (await postOk(own, '/api/me/2fa/setup', {})) as { secret: string };
    const { recoveryCodes } = (await postOk(own, '/api/me/2fa/enable', {
      code: await generate({ secret }),
    })) as { recoveryCodes: string[] };
    return { ...account, secret, recoveryCodes };
  } finally {
    await own.dispose();
  }
}

test('an admin with two-factor sign-in needs the code: a wrong one is refused, a recovery code works once', async ({
  page,
  request,
  admin: owner,
}) => {
  const admin = await adminWithTwoFactor(request, owner);

  // the password alone: the code step, and no session
  await signIn(page, admin);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  const me = await page.request.get('/api/auth/current-user');
  expect(((await me.json()) as { user: unknown }).user).toBeNull();

  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid authentication code');
  await expect(page).toHaveURL(/\/login/);

  await code.fill(await nextCode(admin.secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();

  // another browser: a recovery code signs in once
  const [recovery = ''] = admin.recoveryCodes;
  await page.context().clearCookies();
  await signIn(page, admin, '/login?redirect=/profile');
  await page.getByLabel('Authentication code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(card).toContainText('Recovery codes left: 9');

  await page.context().clearCookies();
  await signIn(page, admin);
  await page.getByLabel('Authentication code').fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid authentication code');
  await expect(page).toHaveURL(/\/login/);
});

test('a user turns two-factor sign-in on from the profile with a code and sees recovery codes', async ({
  page,
  account,
}) => {
  await signIn(page, account, '/login?redirect=/profile');
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = ((await card.getByTestId('two-factor-secret').textContent()) ?? '').replace(
    /\s/g,
    '',
  );
  await expect(card.getByRole('link', { name: 'open it in the app' })).toHaveAttribute(
    'href',
    /^otpauth:\/\/totp\//,
  );
  await card.getByLabel('Code from the app').fill(await generate({ secret }));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(
    card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
  ).toHaveCount(10);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card).toContainText('Recovery codes left: 10');

  await card.getByLabel('Current password').fill(account.password);
  await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await expect(card.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
});

test('an admin with two-factor sign-in lands back on the page they logged in from, after the code', async ({
  page,
  request,
  admin: owner,
}) => {
  const admin = await adminWithTwoFactor(request, owner);

  // from the top bar of an open page
  await page.goto('/Tutorials');
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await page.getByLabel('Username').fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: /log ?in/i }).click();
  await page.getByLabel('Authentication code').fill(await nextCode(admin.secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/Tutorials$/);
  await expect(page.getByRole('banner')).toContainText(admin.username);

  // sent to log in by an admin page
  await page.context().clearCookies();
  await signIn(page, admin, '/admin/analytics');
  await expect(page).toHaveURL(/\/login\?admin=true$/);
  await page.getByLabel('Authentication code').fill(admin.recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/analytics$/);
});

test('the two-factor setup shows a QR code of the key beside it, made by the site itself', async ({
  page,
  account,
}) => {
  const outside: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().startsWith(BASE_URL) && !sent.url().startsWith('data:')) {
      outside.push(sent.url());
    }
  });
  await signIn(page, account, '/login?redirect=/profile');
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(card.getByTestId('two-factor-secret')).toBeVisible();
  const qr = card.getByRole('img', { name: /QR code/ });
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  // a real picture: the browser decoded it at a size a phone's camera can read
  const size = await qr.evaluate((image: HTMLImageElement) => ({
    natural: image.naturalWidth,
    shown: image.getBoundingClientRect().width,
  }));
  expect(size.natural).toBeGreaterThan(0);
  expect(size.shown).toBeGreaterThanOrEqual(150);
  expect(outside).toEqual([]);
});
