import {
  expect,
  expectFitsPhoneWidth,
  expectNoA11yViolations,
  registerAccount,
  signIn,
  test,
} from '../fixtures';

/** The pages a guest can open, with the title each one sets. */
const GUEST_PAGES = [
  { path: '/', title: 'GameDev Portfolio', heading: 'Welcome to my portfolio' },
  { path: '/games', title: 'Games | GameDev Portfolio', heading: 'Games' },
  { path: '/Gallery', title: 'My Gallery | GameDev Portfolio', heading: 'My Gallery' },
  { path: '/Tutorials', title: 'Tutorials | GameDev Portfolio', heading: 'Tutorials' },
  { path: '/login', title: 'Login | GameDev Portfolio', heading: 'Login' },
  { path: '/register', title: 'Register | GameDev Portfolio', heading: 'Register' },
  { path: '/subscribe', title: 'Subscribe | GameDev Portfolio', heading: /subscri/i },
];

test.describe('a guest on every public page', () => {
  for (const { path, title, heading } of GUEST_PAGES) {
    test(`${path}: no console error, inspector issue or layout shift, its own title and description, no axe violation of any impact`, async ({
      page,
    }) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') {
          problems.push(message.text());
        }
      });
      page.on('pageerror', (error) => problems.push(error.message));
      // what DevTools' Issues panel (and Lighthouse's inspector-issues audit) would list, such as
      // a script blocked by the Content-Security-Policy
      const devtools = await page.context().newCDPSession(page);
      devtools.on('Audits.issueAdded', ({ issue }) =>
        problems.push(`${issue.code}: ${JSON.stringify(issue.details).slice(0, 300)}`),
      );
      await devtools.send('Audits.enable');
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // a page's late work (the games' status check, schemas built by lazy chunks) has run
      await page.waitForLoadState('networkidle');
      await expect(page).toHaveTitle(title);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length ?? 0).toBeGreaterThan(20);
      // nothing on the page jumped as it loaded (Lighthouse's cumulative layout shift)
      const layoutShift = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) {
                total += entry.value;
              }
            }).observe({ type: 'layout-shift', buffered: true });
            setTimeout(() => resolve(total), 200);
          }),
      );
      expect(layoutShift).toBeLessThan(0.01);
      await expectNoA11yViolations(page);
      await expectFitsPhoneWidth(page);
      expect(problems).toEqual([]);
    });
  }

  test('titles follow client-side navigation', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Gallery' })
      .click();
    await expect(page).toHaveTitle('My Gallery | GameDev Portfolio');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      'Browse projects, prototypes and visual effects with videos and screenshots.',
    );
  });

  test('the unknown-page error has an h1 and passes axe', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeVisible();
    await expect(page.getByText('404 Not Found')).toBeVisible();
    await expectNoA11yViolations(page);
  });
});

test.describe('delivery', () => {
  test('scripts arrive compressed, hashed ones cached for a year, the page revalidated', async ({
    page,
  }) => {
    const scripts: Array<{ url: string; encoding: string | null; cache: string | null }> = [];
    const seen: Array<Promise<void>> = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) {
        const headers = response.headers();
        seen.push(
          response.body().then((body) => {
            // files under 1 KB are sent as they are: compressing them saves nothing
            scripts.push({
              url: response.url(),
              encoding: body.length >= 1024 ? (headers['content-encoding'] ?? null) : 'br',
              cache: headers['cache-control'] ?? null,
            });
          }),
        );
      }
    });
    const document = await page.goto('/');
    expect(document?.headers()['cache-control']).toBe('no-cache');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await Promise.all(seen);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.encoding, script.url).toBe('br');
      expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
    }
  });

  test('a missing file is a 404, not the app page', async ({ request }) => {
    const missing = await request.get('/assets/index-00000000.js');
    expect(missing.status()).toBe(404);
    expect(await missing.text()).not.toContain('id="root"');
  });

  test('robots.txt and sitemap.xml describe the public pages', async ({ request, baseURL }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    const sitemap = await (await request.get('/sitemap.xml')).text();
    for (const path of ['/', '/games', '/Gallery', '/Tutorials']) {
      expect(sitemap).toContain(`<loc>${baseURL}${path}</loc>`);
    }
    expect(sitemap).not.toContain('/admin');
  });
});

test.describe('fixes found in review', () => {
  test("the footer links to the owner's profiles set on the server", async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'GitHub' })).toHaveAttribute(
      'href',
      'https://github.com/e2e-owner',
    );
    await expect(footer.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute(
      'href',
      'https://www.linkedin.com/in/e2e-owner',
    );
  });

  test('a username of only spaces gets a whole sentence', async ({ page }) => {
    await signIn(page, { username: '   ', password: 'some-password' });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Please enter your username');
    await expect(alert).not.toContainText('username:');
  });

  test('a heartbeat reports the route as it is spelled, whatever was typed', async ({ page }) => {
    const heartbeat = page.waitForRequest((request) =>
      request.url().endsWith('/api/anonymous-heartbeat'),
    );
    await page.goto('/gallery');
    const body = (await heartbeat).postDataJSON() as { currentPage: string };
    expect(body.currentPage).toBe('/Gallery');
  });

  test('Live Activity lists /gallery and /Gallery as one page', async ({
    page,
    browser,
    admin,
  }) => {
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    try {
      await guestPage.goto('/gallery');
      await expect(guestPage.getByRole('heading', { name: 'My Gallery' })).toBeVisible();
      await signIn(page, admin);
      await expect(page).toHaveURL(/\/$/);
      const active = (await (await page.request.get('/api/active-users')).json()) as {
        anonymous: { currentPages: Record<string, number> };
      };
      expect(Object.keys(active.anonymous.currentPages)).toContain('/Gallery');
      expect(Object.keys(active.anonymous.currentPages)).not.toContain('/gallery');
    } finally {
      await guest.close();
    }
  });

  test('a signed-in user who opens /login or /register is sent on', async ({ page, request }) => {
    const account = await registerAccount(request);
    await signIn(page, account);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/login?redirect=/games');
    await expect(page).toHaveURL(/\/games$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toHaveCount(0);
    await page.goto('/register');
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome to my portfolio' }),
    ).toBeVisible();
  });
});
