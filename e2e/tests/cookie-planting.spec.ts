import {
  type APIRequestContext,
  type Frame,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';

import { expect, registerAccount, signIn, test } from '../fixtures';

/*
 * A game may try to plant cookies for the site. Browsers do not separate cookies by port, so the
 * embedded games origin is the other loopback name (the site on 127.0.0.1, its games on
 * localhost, the next port), as production puts games on another registrable domain; a page on
 * games.example.com could still set a cookie for Domain=example.com, which the site's __Host-
 * names (Secure, Path=/, no Domain, HttpOnly) refuse. Whatever a game plants, the signed-in
 * visitor stays signed in as themselves: also when it fills the cookie jar until the browser
 * evicts the site's cookies, or sets a partitioned copy of the session cookie from its frame.
 */

const PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${PORT}`;
const GAMES = `http://localhost:${PORT + 1}`;

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
  // the game's __Host- cookies stayed in its own host's jar, never the site's
  expect(planted).toContain('__Host-sid=');
  const siteCookies = await page.context().cookies(SITE);
  expect(siteCookies.filter((cookie) => cookie.name.startsWith('__Host-'))).toEqual([
    expect.objectContaining({ name: '__Host-sid', value: before?.value }),
    expect.objectContaining({ name: '__Host-did' }),
  ]);
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

/** What the probe's build ran: ~400 cookies, so the browser evicts the oldest of the host's. */
async function overflowAndPlant(target: Page | Frame, attackerSession: string): Promise<string> {
  return target.evaluate((session) => {
    for (let index = 0; index < 400; index += 1) {
      document.cookie = `ovf${index}=x; Path=/; Secure; Max-Age=3600`;
    }
    document.cookie = `__Host-sid=${session}; Path=/; Secure; Max-Age=31536000`;
    for (let index = 0; index < 400; index += 1) {
      document.cookie = `ovf${index}=; Path=/; Secure; Max-Age=0`;
    }
    // what the page's jar holds now
    return document.cookie;
  }, attackerSession);
}

test('a game that overflows the cookie jar and sets the session cookie leaves the player themselves', async ({
  page,
  account,
}) => {
  await signIn(page, account);
  const token = await attackerToken();
  const gamePage = await openGamePage(page, page.request);
  expect(new URL(gamePage.url()).hostname, 'the games origin is another host name').not.toBe(
    new URL(SITE).hostname,
  );
  // the game's own jar took it: the attack ran as the probe ran it
  expect(await overflowAndPlant(gamePage, token)).toContain(`__Host-sid=${token}`);
  await gamePage.close();

  expect(await signedInAs(page)).toBe(account.username);
  await page.reload();
  await expect(
    page.getByRole('banner').getByRole('link', { name: account.username }),
  ).toBeVisible();
  expect(await signedInAs(page)).toBe(account.username);

  // why games need a host name of their own: the same script on the site's host name (where
  // games were served before, on the next port) takes the player's session over
  await overflowAndPlant(page, token);
  const taken = await signedInAs(page);
  expect(taken).not.toBeNull();
  expect(taken).not.toBe(account.username);
});

test("a game's partitioned copy of the session cookie leaves the player themselves", async ({
  page,
  account,
}) => {
  await signIn(page, account);
  const token = await attackerToken();
  const games = (await (await page.request.get('/api/games')).json()) as {
    games: Array<{ access: string; playUrl: string | null }>;
  };
  const playUrl = games.games.find(
    (game) => game.access === 'public' && game.playUrl?.startsWith(GAMES),
  )?.playUrl;
  expect(playUrl, 'a public game on the games origin').toBeTruthy();
  // the game runs in a frame of a site page, as in the viewer: a cookie it sets with
  // `Partitioned` is kept under the site's top-level key
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
  }, playUrl ?? '');
  await expect.poll(() => page.frames().some((frame) => frame.url() === playUrl)).toBe(true);
  const frame = page.frames().find((candidate) => candidate.url() === playUrl);
  await frame?.evaluate((session) => {
    document.cookie = `__Host-sid=${session}; Path=/; Secure; Partitioned; Max-Age=31536000`;
  }, token);

  expect(await signedInAs(page)).toBe(account.username);
  await page.reload();
  await expect(
    page.getByRole('banner').getByRole('link', { name: account.username }),
  ).toBeVisible();
  expect(await signedInAs(page)).toBe(account.username);
});
