import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError, CurrentUser, CurrentUserResponse, LoginResponse } from '@portfolio/types';

import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

/** What a browser would send back: just the session cookie, from a client with no jar of its own. */
/** Who the server sees signed in with this cookie, sent by another client. */
async function replay(cookieHeader: string): Promise<CurrentUser | null> {
  const response = await app
    .client()
    .request<CurrentUserResponse>('GET', '/api/auth/current-user', undefined, {
      cookie: cookieHeader,
    });
  return response.body.user;
}

describe('POST /api/auth/login', () => {
  it('answers a wrong password and an unknown username with the same 401', async () => {
    const { username } = await signedInClient(app);
    const wrongPassword = await app
      .client()
      .post<ApiError>('/api/auth/login', { username, password: 'wrong password' });
    const unknownUser = await app
      .client()
      .post<ApiError>('/api/auth/login', { username: uniqueName(), password: 'wrong password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.body).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' },
    });
    expect(unknownUser.body).toEqual(wrongPassword.body);
    expect(wrongPassword.headers.getSetCookie()).toEqual([]);
  });

  it('answers 400 with a whole sentence when a field is missing', async () => {
    const response = await app
      .client()
      .post<ApiError>('/api/auth/login', { username: uniqueName(), password: '' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please enter your password');
    const spaces = await app
      .client()
      .post<ApiError>('/api/auth/login', { username: '   ', password: 'a password' });
    expect(spaces.status).toBe(400);
    expect(spaces.body.error.message).toBe('Please enter your username');
  });

  it('stores the device the user logged in from and the login time', async () => {
    const { username, password, id } = await signedInClient(app);
    const before = await app.deps.users.findById(id);
    const response = await app.client().post<LoginResponse>('/api/auth/login', {
      username,
      password,
      deviceInfo: {
        screenResolution: '1920x1080',
        timezone: 'Europe/Berlin',
        language: 'de-DE',
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      },
    });
    expect(response.status).toBe(200);
    const row = await app.deps.users.findById(id);
    expect(row?.deviceInfo).toEqual({
      type: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      screenWidth: 1920,
      screenHeight: 1080,
      timezone: 'Europe/Berlin',
      language: 'de-DE',
    });
    expect(row?.lastLogin).toBeInstanceOf(Date);
    expect(row?.lastLogin?.getTime()).toBeGreaterThanOrEqual(before?.lastLogin?.getTime() ?? 0);
    expect(Math.abs((row?.lastLogin?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('falls back to the User-Agent header when no device info is sent', async () => {
    const { username, password, id } = await signedInClient(app);
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    const response = await app
      .client()
      .post('/api/auth/login', { username, password }, { 'user-agent': iphone });
    expect(response.status).toBe(200);
    expect((await app.deps.users.findById(id))?.deviceInfo).toMatchObject({
      type: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      screenWidth: 0,
    });
  });

  it('issues a new session cookie on every login and ends the previous session', async () => {
    const { client, username, password } = await signedInClient(app);
    const firstCookie = client.cookieHeader;
    expect(firstCookie).toMatch(/^__Host-sid=.+/);

    expect((await client.post('/api/auth/login', { username, password })).status).toBe(200);
    const secondCookie = client.cookieHeader;
    expect(secondCookie).not.toBe(firstCookie);

    expect(await replay(firstCookie)).toBeNull();
    expect(await replay(secondCookie)).toMatchObject({ username });
    expect(await currentUserOf(client)).not.toBeNull();
  });

  it('never lets a browser or proxy keep the current user', async () => {
    const { client } = await signedInClient(app);
    expect((await client.get('/api/auth/current-user')).headers.get('cache-control')).toBe(
      'no-store',
    );
  });
});

describe('POST /api/auth/logout', () => {
  it('destroys the session on the server, not just the cookie', async () => {
    const { client } = await signedInClient(app);
    const cookie = client.cookieHeader;
    expect(await replay(cookie)).not.toBeNull();

    const logout = await client.post('/api/auth/logout');
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie().join('\n')).toMatch(
      /__Host-sid=;.*Expires=Thu, 01 Jan 1970/i,
    );
    expect(await currentUserOf(client)).toBeNull();
    expect(await replay(cookie)).toBeNull();
  });

  it('answers 200 for a guest too', async () => {
    expect((await app.client().post('/api/auth/logout')).status).toBe(200);
  });
});
