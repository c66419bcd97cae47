import { randomInt } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type {
  ActiveUsersResponse,
  ApiError,
  AuditEntry,
  CurrentUserResponse,
  LoginSuccess,
  LoginTwoFactorChallenge,
  TwoFactorEnableResponse,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '@portfolio/types';

import { loginChallenges, userTwoFactor } from '../../db/schema.js';
import { currentUserOf, startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { RELAXED_AUTH_LIMITS } from '../../test/relaxed-limits.js';
import { openSocket, waitForConnect, waitForEvent } from '../../realtime/socket-test-client.js';

/**
 * A code for a later 30 s step than now's: the step enabling used is taken, and a code of the
 * same step is refused as a replay. The server accepts one step of drift either way.
 */
const codeAt = (secret: string, offsetSeconds: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Sets up and turns on 2FA for a signed-in client; the secret and recovery codes. */
async function enableTwoFactor(client: TestClient) {
  const setup = await client.post<TwoFactorSetupResponse>('/api/me/2fa/setup');
  expect(setup.status).toBe(200);
  const enabled = await client.post<TwoFactorEnableResponse>('/api/me/2fa/enable', {
    code: await codeAt(setup.body.secret, 0),
  });
  expect(enabled.status).toBe(200);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

/** A fresh user with 2FA on, and a new client for signing in (no session). */
async function userWithTwoFactor(app: TestApp, role: 'user' | 'admin' = 'user') {
  const account = await signedInClient(app, role);
  const { secret, recoveryCodes } = await enableTwoFactor(account.client);
  return { ...account, secret, recoveryCodes, browser: app.client() };
}

async function passwordStep(client: TestClient, username: string, password: string) {
  const response = await client.post<LoginTwoFactorChallenge>('/api/auth/login', {
    username,
    password,
  });
  expect(response.status).toBe(200);
  expect(response.body.twoFactorRequired).toBe(true);
  return response;
}

describe('two-factor sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('sets up with a secret and URI, enables with a code and shows 10 recovery codes once', async () => {
    const { client, username } = await signedInClient(app);
    expect((await client.get<TwoFactorStatus>('/api/me/2fa')).body).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      isRequired: false,
    });
    const setup = await client.post<TwoFactorSetupResponse>('/api/me/2fa/setup');
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup.body.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.body.otpauthUri).toContain(encodeURIComponent(username));

    const wrong = await client.post<ApiError>('/api/me/2fa/enable', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('TWO_FACTOR_WRONG_CODE');
    const garbage = await client.post<ApiError>('/api/me/2fa/enable', { code: 'not a code' });
    expect(garbage.status).toBe(400);
    const missing = await client.post<ApiError>('/api/me/2fa/enable', {});
    expect(missing.status).toBe(400);

    const enabled = await client.post<TwoFactorEnableResponse>('/api/me/2fa/enable', {
      code: await codeAt(setup.body.secret, 0),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    for (const code of enabled.body.recoveryCodes) {
      expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    }
    const status = await client.get<TwoFactorStatus>('/api/me/2fa');
    expect(status.body).toEqual({ enabled: true, recoveryCodesLeft: 10, isRequired: false });
    expect(JSON.stringify(status.body)).not.toContain(setup.body.secret);

    // a stolen session cannot move the secret to another device
    const again = await client.post<ApiError>('/api/me/2fa/setup');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('TWO_FACTOR_ALREADY_ENABLED');
    const [row] = await app.deps.database.db.select().from(userTwoFactor);
    expect(row?.secretEncrypted).not.toContain(setup.body.secret);
  });

  it('refuses enabling before a setup, and setup or status for a guest', async () => {
    const { client } = await signedInClient(app);
    const enable = await client.post<ApiError>('/api/me/2fa/enable', { code: '123456' });
    expect(enable.status).toBe(409);
    expect((await app.client().post('/api/me/2fa/setup')).status).toBe(401);
    expect((await app.client().get('/api/me/2fa')).status).toBe(401);
  });

  it('gives no session for the password alone', async () => {
    const { username, password, browser } = await userWithTwoFactor(app);
    const login = await passwordStep(browser, username, password);
    expect(login.body.challenge).toMatch(/^[\w-]{40,}$/);
    expect('user' in login.body).toBe(false);
    expect(login.headers.getSetCookie()).toEqual([]);
    expect(await currentUserOf(browser)).toBeNull();
  });

  it('refuses a wrong code, signs in with the right one and refuses it replayed', async () => {
    const { username, password, secret, browser } = await userWithTwoFactor(app);
    const { challenge } = (await passwordStep(browser, username, password)).body;
    const wrong = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge,
      code: '000000',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({
      code: 'INVALID_TWO_FACTOR_CODE',
      message: 'Invalid authentication code',
    });
    expect(await currentUserOf(browser)).toBeNull();

    const code = await codeAt(secret, 30);
    const right = await browser.post<LoginSuccess>('/api/auth/login/2fa', {
      challenge,
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(right.status).toBe(200);
    expect(right.body.user.username).toBe(username);
    expect(await currentUserOf(browser)).toMatchObject({ username });

    // single use: the challenge is gone
    const reused = await browser.post<ApiError>('/api/auth/login/2fa', { challenge, code });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');

    // the same code (its time step is taken) on a new login elsewhere
    const other = app.client();
    const second = (await passwordStep(other, username, password)).body.challenge;
    const replayed = await other.post<ApiError>('/api/auth/login/2fa', {
      challenge: second,
      code,
    });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('INVALID_TWO_FACTOR_CODE');
    // so is an older one
    const older = await other.post<ApiError>('/api/auth/login/2fa', {
      challenge: second,
      code: await codeAt(secret, 0),
    });
    expect(older.status).toBe(401);
    expect(await currentUserOf(other)).toBeNull();
  });

  it('signs in with a recovery code once, and audits it', async () => {
    const { username, password, recoveryCodes, client, id } = await userWithTwoFactor(app);
    const [recovery = ''] = recoveryCodes;
    const browser = app.client();
    const first = (await passwordStep(browser, username, password)).body.challenge;
    const used = await browser.post<LoginSuccess>('/api/auth/login/2fa', {
      challenge: first,
      code: recovery.toLowerCase(),
    });
    expect(used.status).toBe(200);
    expect(await currentUserOf(browser)).toMatchObject({ username });
    expect((await client.get<TwoFactorStatus>('/api/me/2fa')).body.recoveryCodesLeft).toBe(9);

    const other = app.client();
    const second = (await passwordStep(other, username, password)).body.challenge;
    const again = await other.post<ApiError>('/api/auth/login/2fa', {
      challenge: second,
      code: recovery,
    });
    expect(again.status).toBe(401);
    expect(await currentUserOf(other)).toBeNull();

    const admin = await signedInClient(app, 'admin');
    const detail = await admin.client.get<{ history: AuditEntry[] }>(`/api/users/${id}`);
    const actions = detail.body.history.map((entry) => entry.action);
    expect(actions).toContain('2fa-enable');
    expect(actions).toContain('2fa-recovery-code');
  });

  it('lets a challenge expire', async () => {
    const { username, password, secret, browser, id } = await userWithTwoFactor(app);
    const { challenge } = (await passwordStep(browser, username, password)).body;
    await app.deps.database.db
      .update(loginChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginChallenges.userId, id));
    const late = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge,
      code: await codeAt(secret, 30),
    });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect(await currentUserOf(browser)).toBeNull();
  });

  it('ends a challenge after 5 wrong codes', async () => {
    const { username, password, secret, browser } = await userWithTwoFactor(app);
    const { challenge } = (await passwordStep(browser, username, password)).body;
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await browser.post('/api/auth/login/2fa', { challenge, code: '000000' });
      expect(wrong.status).toBe(401);
    }
    const right = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge,
      code: await codeAt(secret, 30),
    });
    expect(right.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('checks no more than 5 codes on one challenge, even sent together', async () => {
    const { username, password, secret, browser } = await userWithTwoFactor(app);
    const { challenge } = (await passwordStep(browser, username, password)).body;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        app.client().post<ApiError>('/api/auth/login/2fa', { challenge, code: '000000' }),
      ),
    );
    const checked = answers.filter(
      (answer) => answer.body.error.code === 'INVALID_TWO_FACTOR_CODE',
    );
    expect(checked).toHaveLength(5);
    const right = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge,
      code: await codeAt(secret, 30),
    });
    expect(right.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('answers bad input with a 4xx', async () => {
    const browser = app.client();
    expect((await browser.post('/api/auth/login/2fa', {})).status).toBe(400);
    expect(
      (await browser.post('/api/auth/login/2fa', { challenge: 'x'.repeat(500), code: '1' })).status,
    ).toBe(400);
    expect((await browser.post('/api/auth/login/2fa', { challenge: 5, code: [] })).status).toBe(
      400,
    );
    const unknown = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge: 'made-up',
      code: '123456',
    });
    expect(unknown.status).toBe(401);
    const { username, password } = await userWithTwoFactor(app);
    const { challenge } = (await passwordStep(browser, username, password)).body;
    const notACode = await browser.post<ApiError>('/api/auth/login/2fa', {
      challenge,
      code: '\u0000😀',
    });
    expect(notACode.status).toBe(401);
    expect((await browser.post('/api/me/2fa/disable', { password: 'x' })).status).toBe(401);
  });

  it('turns off with the password or a code, audited; then the password signs in', async () => {
    const { username, password, client, recoveryCodes } = await userWithTwoFactor(app);
    const wrong = await client.post<ApiError>('/api/me/2fa/disable', { password: 'wrong one' });
    expect(wrong.status).toBe(400);
    // not the profile's INVALID_PASSWORD (a 401): one code has one status everywhere
    expect(wrong.body.error.code).toBe('TWO_FACTOR_WRONG_PASSWORD');
    expect((await client.post('/api/me/2fa/disable', {})).status).toBe(400);
    const off = await client.post('/api/me/2fa/disable', { code: recoveryCodes[1] });
    expect(off.status).toBe(200);
    expect((await client.get<TwoFactorStatus>('/api/me/2fa')).body.enabled).toBe(false);
    expect((await client.post('/api/me/2fa/disable', { password })).status).toBe(409);
    const login = await app.client().post<LoginSuccess>('/api/auth/login', { username, password });
    expect(login.body.user.username).toBe(username);

    const other = await userWithTwoFactor(app);
    expect(
      (await other.client.post('/api/me/2fa/disable', { password: other.password })).status,
    ).toBe(200);
  });
});

describe('two-factor code attempts are rate limited', () => {
  const CODES_PER_ADDRESS = 6;
  let app: TestApp;
  beforeAll(async () => {
    // trust the loopback proxy so each request can come from its own X-Forwarded-For address
    app = await startTestApp(
      { trustProxy: 'loopback' },
      {
        authRateLimits: {
          ...RELAXED_AUTH_LIMITS,
          loginPerIp: { limit: CODES_PER_ADDRESS, windowMs: 60_000 },
          twoFactorPerUser: { limit: 3, windowMs: 60_000 },
        },
      },
    );
  });
  afterAll(async () => {
    await app.stop();
  });

  const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  /**
   * A fresh user with 2FA on, signed up and in from its own address: the per-address limit here
   * is small, and runs sharing one Redis share 127.0.0.1's counter.
   */
  async function userWithTwoFactorAt(ip: string) {
    const { client, username, password } = await signedInClient(app, {
      headers: { 'x-forwarded-for': ip },
    });
    return { username, password, ...(await enableTwoFactor(client)) };
  }

  /** The password step from this address; its challenge. */
  async function challengeFrom(ip: string, username: string, password: string) {
    const response = await app
      .client()
      .post<LoginTwoFactorChallenge>(
        '/api/auth/login',
        { username, password },
        { 'x-forwarded-for': ip },
      );
    expect(response.status).toBe(200);
    return response.body.challenge;
  }

  /** Someone with the password: wrong codes on new challenges, each from a new address. */
  async function wrongCodesFromEverywhere(username: string, password: string, count: number) {
    for (let attempt = 0; attempt < count; attempt++) {
      const ip = randomIp();
      const challenge = await challengeFrom(ip, username, password);
      const wrong = await app
        .client()
        .post<ApiError>(
          '/api/auth/login/2fa',
          { challenge, code: '000000' },
          { 'x-forwarded-for': ip },
        );
      expect(wrong.status).toBe(401);
    }
  }

  /** The owner at a fresh address: password, then this code, in one browser. */
  async function ownerSignsIn(username: string, password: string, code: string) {
    const ip = randomIp();
    const browser = app.client();
    const { challenge } = (
      await browser.post<LoginTwoFactorChallenge>(
        '/api/auth/login',
        { username, password },
        { 'x-forwarded-for': ip },
      )
    ).body;
    const response = await browser.post<LoginSuccess>(
      '/api/auth/login/2fa',
      { challenge, code },
      { 'x-forwarded-for': ip },
    );
    return { response, browser };
  }

  it("lets the owner's right code in after wrong codes from many addresses", async () => {
    const { username, password, secret } = await userWithTwoFactorAt(randomIp());
    await wrongCodesFromEverywhere(username, password, 5);
    const { response, browser } = await ownerSignsIn(username, password, await codeAt(secret, 30));
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(username);
    expect(await currentUserOf(browser)).toMatchObject({ username });
  });

  it("lets the owner's recovery code in after wrong codes from many addresses", async () => {
    const { username, password, recoveryCodes } = await userWithTwoFactorAt(randomIp());
    await wrongCodesFromEverywhere(username, password, 5);
    const { response, browser } = await ownerSignsIn(username, password, recoveryCodes[0] ?? '');
    expect(response.status).toBe(200);
    expect(await currentUserOf(browser)).toMatchObject({ username });
  });

  it('past the per-user limit, ends a challenge at its first wrong code', async () => {
    const { username, password, secret } = await userWithTwoFactorAt(randomIp());
    await wrongCodesFromEverywhere(username, password, 3);
    const ip = randomIp();
    const challenge = await challengeFrom(ip, username, password);
    const wrong = await app
      .client()
      .post<ApiError>(
        '/api/auth/login/2fa',
        { challenge, code: '000000' },
        { 'x-forwarded-for': ip },
      );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    // no second guess on it, right or wrong
    const browser = app.client();
    const right = await browser.post<ApiError>(
      '/api/auth/login/2fa',
      { challenge, code: await codeAt(secret, 30) },
      { 'x-forwarded-for': ip },
    );
    expect(right.body.error.code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect(await currentUserOf(browser)).toBeNull();
  });

  it('answers 429 to a flood of codes from one address', async () => {
    const { username, password, secret } = await userWithTwoFactorAt(randomIp());
    const flooder = randomIp();
    for (let attempt = 0; attempt < CODES_PER_ADDRESS; attempt++) {
      const challenge = await challengeFrom(randomIp(), username, password);
      const wrong = await app
        .client()
        .post('/api/auth/login/2fa', { challenge, code: '000000' }, { 'x-forwarded-for': flooder });
      expect(wrong.status).toBe(401);
    }
    const browser = app.client();
    const limited = await browser.post<ApiError>(
      '/api/auth/login/2fa',
      {
        challenge: await challengeFrom(randomIp(), username, password),
        code: await codeAt(secret, 30),
      },
      { 'x-forwarded-for': flooder },
    );
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await currentUserOf(browser)).toBeNull();
  });

  it('gives a right code back: signing in often is not limited', async () => {
    const { username, password, recoveryCodes } = await userWithTwoFactorAt(randomIp());
    for (const code of recoveryCodes.slice(0, 5)) {
      expect((await ownerSignsIn(username, password, code)).response.status).toBe(200);
    }
  });
});

describe('ADMIN_REQUIRE_2FA', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ adminRequireTwoFactor: true });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('signs an admin without 2FA in to set it up, and refuses other calls until it is on', async () => {
    const admin = await signedInClient(app, 'admin');
    const { client } = admin;
    const login = await client.post<LoginSuccess>('/api/auth/login', {
      username: admin.username,
      password: admin.password,
    });
    expect(login.body.twoFactorSetupRequired).toBe(true);
    const me = await client.get<CurrentUserResponse>('/api/auth/current-user');
    expect(me.body).toMatchObject({ user: { role: 'admin' }, twoFactorSetupRequired: true });

    const users = await client.get<ApiError>('/api/users');
    expect(users.status).toBe(403);
    expect(users.body.error.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
    expect((await client.get('/api/admin/games')).status).toBe(403);
    expect((await client.post('/api/admin/tokens', { name: 'x' })).status).toBe(403);
    // the build upload sits ahead of the JSON parser, with its own session lookup
    const upload = await client.request<ApiError>('PUT', '/api/admin/games/WolfScape/build', 'PK', {
      'content-type': 'application/zip',
    });
    expect(upload.status).toBe(403);
    expect(upload.body.error.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
    expect((await client.get('/api/user/profile')).status).toBe(200);
    expect((await client.get<TwoFactorStatus>('/api/me/2fa')).body.isRequired).toBe(true);

    await enableTwoFactor(client);
    expect((await client.get('/api/users')).status).toBe(200);
    const after = await client.get<CurrentUserResponse>('/api/auth/current-user');
    expect(after.body.twoFactorSetupRequired).toBeUndefined();
  });

  it('leaves other users alone', async () => {
    const { client } = await signedInClient(app);
    const me = await client.get<CurrentUserResponse>('/api/auth/current-user');
    expect(me.body.twoFactorSetupRequired).toBeUndefined();
    expect((await client.get('/api/user/profile')).status).toBe(200);
    expect((await client.get('/api/me/games')).status).not.toBe(403);
  });

  it('asks an admin with 2FA for the code', async () => {
    const { username, password, browser } = await userWithTwoFactor(app, 'admin');
    await passwordStep(browser, username, password);
    expect(await currentUserOf(browser)).toBeNull();
  });

  it("keeps a pending admin's sockets out of the admins' live events", async () => {
    const pending = await signedInClient(app, 'admin');
    const done = await userWithTwoFactor(app, 'admin');
    const pendingSocket = openSocket(app.url, { cookie: pending.client.cookieHeader });
    const adminSocket = openSocket(app.url, { cookie: done.client.cookieHeader });
    try {
      await Promise.all([waitForConnect(pendingSocket.socket), waitForConnect(adminSocket.socket)]);
      const click = waitForEvent(
        adminSocket.socket,
        'game:click',
        (payload) => payload.gameId === 'RocketGame',
      );
      expect(
        (await done.client.post('/api/track-game-click', { gameId: 'RocketGame' })).status,
      ).toBe(200);
      await click;
      // the same broadcast would reach a member of the room within moments
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pendingSocket.received.map(({ event }) => event)).not.toContain('game:click');
    } finally {
      pendingSocket.close();
      adminSocket.close();
    }
  });

  it("gives a pending admin a user's rights outside /api too: game files and heartbeats", async () => {
    const pending = await signedInClient(app, 'admin');
    const watcher = await userWithTwoFactor(app, 'admin');
    const subscriberFile = () =>
      fetch(`${app.url}/games/Pong/index.html`, {
        headers: { cookie: pending.client.cookieHeader },
      });
    const roleInLiveActivity = async () => {
      expect(
        (await pending.client.post('/api/auth/heartbeat', { currentPage: '/profile' })).status,
      ).toBe(200);
      const active = await watcher.client.get<ActiveUsersResponse>('/api/active-users');
      return active.body.authenticated.find((entry) => entry.username === pending.username)?.role;
    };

    const refused = await subscriberFile();
    expect(refused.status).toBe(403);
    expect(await roleInLiveActivity()).toBe('user');

    await enableTwoFactor(pending.client);
    expect((await subscriberFile()).status).toBe(200);
    expect(await roleInLiveActivity()).toBe('admin');
  });

  it('leaves the admin API tokens working', async () => {
    const admin = await signedInClient(app, 'admin');
    const token = await app.deps.gameHost.tokens.create('ci', {
      id: admin.id,
      username: admin.username,
    });
    const response = await app
      .client()
      .request('GET', '/api/admin/games', undefined, { authorization: `Bearer ${token.token}` });
    expect(response.status).toBe(200);
    // the admin's own session is still pending setup
    expect((await admin.client.get('/api/admin/games')).status).toBe(403);
  });
});
