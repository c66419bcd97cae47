import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';

import { expect, registerAccount, signIn, test } from '../fixtures';

/*
 * A game can plant cookies for the site. Browsers do not separate cookies by port (the
 * embedded games origin is the site's host on the next port) and a page on games.example.com may
 * set a cookie for Domain=example.com, so a published build may run `document.cookie = …` with
 * the site's cookie names. The site's cookies are __Host- cookies (Secure, Path=/, no Domain,
 * HttpOnly): whatever a game plants, the signed-in visitor stays signed in as themselves.
 */

const PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${PORT}`;
const GAMES = `http://127.0.0.1:${PORT + 1}`;

/** A page of a published public game, opened on the games origin, as its own scripts run there. */
async function openGamePage(page: Page, request: APIRequestContext): Promise<Page> {
  const games = (await (await request.get('/api/games')).json()) as {
    games: Array<{ access: string; playUrl: string | null }>;
  };
  const playUrl = games.games.find(
    (game) => game.access === 'public' && game.playUrl?.startsWith(GAMES),
  )?.playUrl;
  expect(playUrl, 'a public game on the games origin').toBeTruthy();
  const gamePage = await page.context().newPage();
  await gamePage.goto(playUrl ?? '');
  return gamePage;
}

/** Who the site says is signed in, asked from a site page as the web app asks. */
async function signedInAs(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const response = await fetch('/api/auth/current-user');
    return (
      ((await response.json()) as { user: { username: string } | null }).user?.username ?? null
    );
  });
}

/** A session token of another account (the attacker's own), from a browser of its own. */
async function attackerToken(): Promise<string> {
  const attacker = await playwrightRequest.newContext({ baseURL: SITE });
  try {
    const account = await registerAccount(attacker, 'attacker');
    const login = await attacker.post('/api/auth/login', {
      data: { username: account.username, password: account.password },
    });
    expect(login.status()).toBe(200);
    const cookies = (await attacker.storageState()).cookies;
    const session = cookies.find((cookie) => cookie.httpOnly && /sid$/.test(cookie.name));
    expect(session, 'the attacker has a session cookie').toBeDefined();
    return session?.value ?? '';
  } finally {
    await attacker.dispose();
  }
}

test('a game that plants session cookies leaves the visitor signed in as themselves', async ({
  page,
  account,
}) => {
  await signIn(page, account);
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: account.username })).toBeVisible();
  const sessionCookie = async () =>
    (await page.context().cookies(SITE)).find(
      (cookie) => cookie.httpOnly && /^(__Host-)?sid$/.test(cookie.name),
    );
  const before = await sessionCookie();
  expect(before, 'the site keeps a session cookie').toBeDefined();

  const token = await attackerToken();
  const gamePage = await openGamePage(page, page.request);
  // what the probe's build ran, and what a cleverer one would: junk and the attacker's own
  // valid token, under the plain name at /api and at /, and under the __Host- names
  const planted = await gamePage.evaluate((attackerSession) => {
    const year = 'max-age=31536000';
    const lines = [
      `sid=junk; path=/api; ${year}`,
      `sid=junk; path=/; ${year}`,
      `sid=${attackerSession}; path=/api/auth; ${year}`,
      `__Host-sid=junk; Secure; path=/; ${year}`,
      `__Host-sid=${attackerSession}; Secure; path=/; ${year}`,
      `__Host-sid=junk; Secure; path=/api; ${year}`,
      `__Host-did=junk; Secure; path=/; ${year}`,
      `did=junk; path=/api/auth; ${year}`,
    ];
    for (const line of lines) {
      document.cookie = line;
    }
    return document.cookie;
  }, token);
  await gamePage.close();
  // what a page on games.example.com plants with Domain=example.com (one host here: the
  // browser's own rule against overwriting an HttpOnly cookie from script would get in the way)
  const inAYear = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
  await page.context().addCookies([
    { name: 'sid', value: 'junk', domain: '127.0.0.1', path: '/api', expires: inAYear },
    { name: 'sid', value: token, domain: '127.0.0.1', path: '/api/auth', expires: inAYear },
    { name: 'did', value: 'junk', domain: '127.0.0.1', path: '/api/auth', expires: inAYear },
  ]);
  const names = (await page.context().cookies(`${SITE}/api/auth/current-user`)).map(
    (cookie) => `${cookie.name}@${cookie.path}`,
  );
  expect(names).toContain('sid@/api');
  expect(names).toContain('sid@/api/auth');

  // the visitor is still themselves: on the API, after a reload, and after a minute's heartbeat
  expect(await signedInAs(page)).toBe(account.username);
  await page.reload();
  await expect(banner.getByRole('link', { name: account.username })).toBeVisible();
  await expect(banner.getByText('Guest')).toHaveCount(0);
  const beat = await page.evaluate(async () => {
    const response = await fetch('/api/auth/heartbeat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currentPage: '/' }),
    });
    return response.status;
  });
  expect(beat).toBe(200);
  // the real session cookie was never cleared or replaced
  const after = await sessionCookie();
  expect(after?.value).toBe(before?.value);
  expect(await signedInAs(page)).toBe(account.username);
  // the browser took none of the game's __Host- cookies
  expect(planted).not.toContain('__Host-');
  // because it is a __Host- cookie: Secure, Path=/, no Domain, HttpOnly
  expect(after).toMatchObject({
    name: '__Host-sid',
    httpOnly: true,
    secure: true,
    path: '/',
    domain: '127.0.0.1',
  });
});

test("a guest's browser does not become the attacker's through a planted plain cookie", async ({
  page,
}) => {
  const token = await attackerToken();
  await page.goto('/');
  const gamePage = await openGamePage(page, page.request);
  await gamePage.evaluate((attackerSession) => {
    document.cookie = `sid=${attackerSession}; path=/; max-age=31536000`;
    document.cookie = `sid=${attackerSession}; path=/api; max-age=31536000`;
  }, token);
  await gamePage.close();
  await page.reload();
  await expect(page.getByRole('banner').getByText('Guest')).toBeVisible();
  expect(await signedInAs(page)).toBeNull();
});
