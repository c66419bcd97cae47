import {
  expect,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

test.describe('accounts', () => {
  test('register, log in, see the name in the top bar, log out', async ({ page }) => {
    const username = uniqueName('reg');
    const password = 'a-good-password';
    await page.goto('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel(/email/i).fill(`${username}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel(/confirm password/i).fill(password);
    await expect(page.getByText('Passwords match')).toBeVisible();
    await page.getByRole('button', { name: /register/i }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: /log ?in/i }).click();
    await expect(page).toHaveURL(/\/$/);

    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: username })).toHaveAttribute('href', '/profile');
    await expect(banner.getByText('Guest')).toHaveCount(0);

    await banner.getByRole('button', { name: /log ?out/i }).click();
    await expect(banner.getByText('Guest')).toBeVisible();
    await expect(banner.getByRole('link', { name: /log ?in/i })).toBeVisible();
    // the session is gone on the server too
    expect(await (await page.request.get('/api/auth/current-user')).json()).toEqual({ user: null });
  });

  test('Login to Play on a multiplayer card: registering and signing in lands in that game', async ({
    page,
  }) => {
    const username = uniqueName('mp');
    const password = 'a-good-password';
    await page.goto('/games');
    await page.getByRole('link', { name: 'WolfScape, Login to Play' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    // no account yet: register from the login page, the way back comes along
    await page.getByRole('main').getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel(/confirm password/i).fill(password);
    await page.getByRole('button', { name: /register/i }).click();
    await expect(page.getByText('Account created. Please log in.')).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: /log ?in/i }).click();
    await expect(page).toHaveURL(/\/games\?play=WolfScape$/);
    await expect(page.getByRole('heading', { name: 'WolfScape', level: 1 })).toBeVisible();
  });

  test("while the next page's code downloads, its address shows the loading state, not the previous page", async ({
    page,
  }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/login-page-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // the register form is gone at once: nothing typed now could land in it
    await expect(page.getByRole('heading', { name: 'Register' })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Loading...');
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
  });

  test('fixing the confirmation after a refused submit leaves only "Passwords match", on a phone too', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/register');
    await page.getByLabel('Username').fill(uniqueName('fix'));
    await page.getByLabel('Password', { exact: true }).fill('first-password');
    await page.getByLabel(/confirm password/i).fill('second-password');
    await page.getByRole('button', { name: /register/i }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');

    await page.getByLabel(/confirm password/i).fill('first-password');
    await expect(page.getByText('Passwords match', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText('Passwords do not match')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('a wrong password shows the server message in a closable box', async ({ page, account }) => {
    await signIn(page, { username: account.username, password: 'not-the-password' });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Invalid username or password');
    await alert.getByRole('button', { name: /close/i }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login/);
  });

  test('mismatched passwords show the message and send no request', async ({ page }) => {
    const registerCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/register')) {
        registerCalls.push(request.url());
      }
    });
    await page.goto('/register');
    await page.getByLabel('Username').fill(uniqueName('mm'));
    await page.getByLabel('Password', { exact: true }).fill('first-password');
    await page.getByLabel(/confirm password/i).fill('second-password');
    await expect(page.getByText('Passwords do not match').first()).toBeVisible();
    await page.getByRole('button', { name: /register/i }).click();
    await expect(page.getByText('Passwords do not match').first()).toBeVisible();
    await page.waitForTimeout(300);
    expect(registerCalls).toEqual([]);
    await expect(page).toHaveURL(/\/register$/);
  });

  test('the login redirect query sends the user on after login', async ({ page, account }) => {
    await signIn(page, account, '/login?redirect=/games');
    await expect(page).toHaveURL(/\/games$/);
  });

  test('a redirect hiding another site behind a tab or a backslash sends the user home', async ({
    page,
    account,
  }) => {
    for (const target of ['/%09/evil.example', '/%5Cevil.example']) {
      await signIn(page, account, `/login?redirect=${target}`);
      // still this site (its top bar), on the home page
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      await expect(page.getByRole('banner')).toContainText(account.username);
      await page
        .getByRole('banner')
        .getByRole('button', { name: /log ?out/i })
        .click();
    }
  });
});

test.describe('route guards', () => {
  test('guests are sent to /login, and to /login?admin=true for admin pages', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);

    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login\?admin=true$/);

    await page.goto('/admin/users/123');
    await expect(page).toHaveURL(/\/login\?admin=true$/);
  });

  test('a signed-in user without the admin role is sent home from /admin', async ({
    page,
    request,
  }) => {
    const account = await registerAccount(request, 'plain');
    await signIn(page, account);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('the admin made with the CLI signs in, wears the Admin badge and reaches /admin', async ({
    page,
    admin,
  }) => {
    // sent from /admin to /login?admin=true, and back to /admin after signing in
    await signIn(page, admin, '/admin');
    await expect(page).toHaveURL(/\/admin$/);
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: new RegExp(admin.username) })).toBeVisible();
    await expect(banner.getByText('Admin', { exact: true })).toBeVisible();
  });
});

test.describe('routing', () => {
  test('lower-case gallery and tutorials links reach the pages', async ({ page }) => {
    await page.goto('/gallery');
    await expect(page.getByRole('heading', { name: 'My Gallery' })).toBeVisible();
    await page.goto('/Tutorials');
    await expect(page.getByRole('heading', { name: 'Tutorials', level: 1 })).toBeVisible();
    await page.goto('/tutorials');
    await expect(page.getByRole('heading', { name: 'Tutorials', level: 1 })).toBeVisible();
  });

  test('an unknown URL shows the router error page with 404', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
    await expect(page.getByText(/404/)).toBeVisible();
  });

  test('the shared frame shows Guest, the nav links and the footer year', async ({ page }) => {
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByText('Guest')).toBeVisible();
    for (const name of ['Games', 'Gallery', 'Tutorials']) {
      await expect(banner.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
    await page.getByRole('main').getByRole('link', { name: /games/i }).first().click();
    await expect(page).toHaveURL(/\/games$/);
  });
});
