import { randomInt } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';

import type { TestClient } from '../../test/harness.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { buildUser, insertUser } from '../../test/factories.js';
import { COMMON_PASSWORD_MESSAGE, PASSWORD_IS_USERNAME_MESSAGE } from './password-policy.js';

const WINDOW_MS = 60_000;
const PASSWORD = 'a long enough passphrase';
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(
    { trustProxy: 'loopback' },
    {
      authRateLimits: {
        loginPerIp: { limit: 6, windowMs: WINDOW_MS },
        loginPerUsername: { limit: 3, windowMs: WINDOW_MS },
        registerPerIp: { limit: 50, windowMs: WINDOW_MS },
        registerPerUsername: { limit: 50, windowMs: WINDOW_MS },
        twoFactorPerUser: { limit: 50, windowMs: WINDOW_MS },
      },
    },
  );
});
afterAll(async () => {
  await app.stop();
});

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
/** A user with PASSWORD, registered from an address of their own. */
const anOwner = () => ({ password: PASSWORD, headers: { 'x-forwarded-for': randomIp() } });

function login(client: TestClient, username: string, password: string, ip = randomIp()) {
  return client.post<ApiError>(
    '/api/auth/login',
    { username, password },
    { 'x-forwarded-for': ip },
  );
}

/** Wrong passwords for a username from many addresses, until the username's counter is full. */
async function lockUsername(username: string) {
  const attacker = app.client();
  for (let attempt = 0; attempt < 3; attempt++) {
    expect((await login(attacker, username, 'wrong password')).status).toBe(401);
  }
  expect((await login(attacker, username, 'wrong password')).status).toBe(429);
}

describe('login throttling with device cookies', () => {
  it('lets the owner in from a browser they signed in with, while guessing holds the username', async () => {
    const { username } = await buildUser(app, anOwner());
    const owner = app.client();
    expect((await login(owner, username, PASSWORD)).status).toBe(200);
    expect(owner.cookieHeader).toMatch(/__Host-did=/);
    await owner.post('/api/auth/logout');

    await lockUsername(username);

    // the owner's own browser is not held
    expect((await login(owner, username, PASSWORD)).status).toBe(200);
    // a browser the owner never used is, like the attacker
    const stranger = await login(app.client(), username, PASSWORD);
    expect(stranger.status).toBe(429);
    expect(stranger.body.error.message).toBe('Too many login attempts. Please try again later.');
  });

  it('knows the device when a junk device cookie is planted beside the real one', async () => {
    const { username } = await buildUser(app, anOwner());
    const owner = app.client();
    expect((await login(owner, username, PASSWORD)).status).toBe(200);
    const device = owner.cookieHeader.split('; ').find((pair) => /^(__Host-)?did=/.test(pair));
    const name = device?.slice(0, device.indexOf('=')) ?? '';
    await lockUsername(username);
    for (const cookie of [`${name}=junk; ${device ?? ''}`, `${device ?? ''}; ${name}=junk`]) {
      const response = await app
        .client()
        .request(
          'POST',
          '/api/auth/login',
          { username, password: PASSWORD },
          { cookie, 'x-forwarded-for': randomIp() },
        );
      expect(response.status, cookie).toBe(200);
    }
  });

  it('counts wrong passwords from a known device on their own, and holds that device too', async () => {
    const { username } = await buildUser(app, anOwner());
    const owner = app.client();
    expect((await login(owner, username, PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login(owner, username, 'wrong password')).status).toBe(401);
    }
    expect((await login(owner, username, 'wrong password')).status).toBe(429);
    // the username's own counter was not touched: another browser may still try
    expect((await login(app.client(), username, PASSWORD)).status).toBe(200);
  });

  it('does not accept a device cookie of another user, nor a forged one', async () => {
    const { username } = await buildUser(app, anOwner());
    const { username: other } = await buildUser(app, anOwner());
    const browser = app.client();
    expect((await login(browser, other, PASSWORD)).status).toBe(200);
    await lockUsername(username);
    expect((await login(browser, username, PASSWORD)).status).toBe(429);

    const cookie = /__Host-did=([^;]+)/.exec(browser.cookieHeader)?.[1] ?? '';
    const [deviceId, issuedAt] = cookie.split('.');
    const forged = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': randomIp(),
        cookie: `__Host-did=${deviceId}.${issuedAt}.AAAAAAAAAAAAAAAAAAAAAA`,
      },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    expect(forged.status).toBe(429);
  });

  it('keeps the per-address limit for known devices', async () => {
    const { username } = await buildUser(app, anOwner());
    const owner = app.client();
    const ip = randomIp();
    expect((await login(owner, username, PASSWORD, ip)).status).toBe(200);
    for (let attempt = 1; attempt < 6; attempt++) {
      await login(owner, username, attempt % 2 ? 'wrong password' : PASSWORD, ip);
    }
    expect((await login(owner, username, PASSWORD, ip)).status).toBe(429);
  });
});

describe('new passwords', () => {
  const register = (username: string, password: string) =>
    app
      .client()
      .post<ApiError>(
        '/api/auth/register',
        { username, password },
        { 'x-forwarded-for': randomIp() },
      );

  it.each(['12345678', 'password', 'Password1', 'qwertyuiop'])(
    'refuses the common password %s with a sentence the form shows',
    async (password) => {
      const response = await register(uniqueName(), password);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'WEAK_PASSWORD',
        message: COMMON_PASSWORD_MESSAGE,
      });
    },
  );

  it('refuses the username as the password, in any case', async () => {
    const username = uniqueName();
    const response = await register(username, username.toUpperCase());
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(PASSWORD_IS_USERNAME_MESSAGE);
  });

  it('accepts the passwords the test suites use', async () => {
    for (const password of ['e2e-password-123', 'correct horse battery', 'secret-password']) {
      expect((await register(uniqueName(), password)).status).toBe(201);
    }
  });

  it('refuses a common new password on change, and lets an existing weak password sign in', async () => {
    const username = uniqueName();
    const user = await insertUser(app.deps.database.db, {
      username,
      // set before the rule existed: the owner must still be able to sign in
      passwordHash: await (await import('./passwords.js')).hashPassword('password1'),
    });
    expect(user.id).toBeTruthy();
    const browser = app.client();
    expect((await login(browser, username, 'password1')).status).toBe(200);
    const change = await browser.post<ApiError>('/api/user/change-password', {
      currentPassword: 'password1',
      newPassword: 'iloveyou',
    });
    expect(change.status).toBe(400);
    expect(change.body.error.message).toBe(COMMON_PASSWORD_MESSAGE);
  });
});
