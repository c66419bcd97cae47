import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Profile } from '@portfolio/types';

import {
  currentUserOf,
  SIGNED_IN_PASSWORD,
  startTestApp,
  type TestApp,
  TestClient,
  uniqueName,
} from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

describe('GET /api/user/profile', () => {
  it("answers the signed-in user's profile", async () => {
    const { client, username } = await signedInClient(app, 'subscriber');
    const response = await client.get('/api/user/profile');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Profile.parse(response.body)).toEqual({
      username,
      email: null,
      email_confirmed: false,
      subscription_mail: true,
      role: 'subscriber',
      subscription_status: null,
      subscription_start_date: null,
      subscription_end_date: null,
      subscription_grant: null,
      total_time_spent: 0,
      games: [],
      achievements: [],
    });
  });

  it('shows the email given at registration', async () => {
    const client = app.client();
    const username = uniqueName('mail');
    const email = `${username}@example.com`;
    await client.post('/api/auth/register', { username, email, password: SIGNED_IN_PASSWORD });
    await client.post('/api/auth/login', { username, password: SIGNED_IN_PASSWORD });
    expect(Profile.parse((await client.get('/api/user/profile')).body).email).toBe(email);
  });
});

describe('POST /api/user/update-email', () => {
  it('sets a valid email, then refuses one another account uses', async () => {
    const first = await signedInClient(app);
    const second = await signedInClient(app);
    const email = `${uniqueName('addr')}@example.com`;

    const response = await first.client.post('/api/user/update-email', { email: ` ${email} ` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Email updated successfully' });
    expect(Profile.parse((await first.client.get('/api/user/profile')).body).email).toBe(email);

    const taken = await second.client.post('/api/user/update-email', {
      email: email.toUpperCase(),
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      error: { code: 'CONFLICT', message: 'That email is already registered' },
    });
    expect(Profile.parse((await second.client.get('/api/user/profile')).body).email).toBeNull();

    // saving one's own email again is fine
    expect((await first.client.post('/api/user/update-email', { email })).status).toBe(200);
  });

  it.each([
    ['no at sign', 'someone.example.com'],
    ['a space', 'some one@example.com'],
    ['no dot after the at sign', 'someone@example'],
    ['nothing', ''],
    ['a display name', 'victim.example.com<evil@attacker.test>'],
    ['an encoded word', '=?utf-8?b?ZXZpbEBhdHRhY2tlci50ZXN0?=@example.com'],
    ['a quoted local part', '"evil"@example.com'],
  ])("refuses an email with %s: 'Please enter a valid email address'", async (_case, email) => {
    const { client } = await signedInClient(app);
    const response = await client.post('/api/user/update-email', { email });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'Please enter a valid email address' },
    });
  });

  it('refuses a body without an email', async () => {
    const { client } = await signedInClient(app);
    for (const body of [{}, { email: 42 }, 'null']) {
      const response = await client.post('/api/user/update-email', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    }
  });
});

describe('POST /api/user/change-password', () => {
  const NEW_PASSWORD = 'a brand new passphrase';

  it('changes the password and ends the other sessions, keeping this one', async () => {
    const user = await signedInClient(app);
    const otherBrowser = app.client();
    expect(
      (
        await otherBrowser.post('/api/auth/login', {
          username: user.username,
          password: SIGNED_IN_PASSWORD,
        })
      ).status,
    ).toBe(200);
    expect(await currentUserOf(otherBrowser)).not.toBeNull();

    const response = await user.client.post('/api/user/change-password', {
      currentPassword: SIGNED_IN_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Password changed successfully' });

    expect(await currentUserOf(user.client)).not.toBeNull();
    expect(await currentUserOf(otherBrowser)).toBeNull();

    const login = (password: string) =>
      app.client().post('/api/auth/login', { username: user.username, password });
    expect((await login(SIGNED_IN_PASSWORD)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
  });

  it('rotates the session token, as login does: the old cookie is dead, the new one signed in', async () => {
    const user = await signedInClient(app);
    const oldCookie = user.client.cookieHeader;
    const response = await user.client.post('/api/user/change-password', {
      currentPassword: SIGNED_IN_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    const setCookie = response.headers
      .getSetCookie()
      // not the line that expires a partitioned (planted) copy first
      .find((line) => line.startsWith('__Host-sid=') && !/;\s*Partitioned/i.test(line));
    expect(setCookie).toMatch(/^__Host-sid=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(user.client.cookieHeader).not.toBe(oldCookie);
    // this tab stays signed in with the new cookie
    expect((await currentUserOf(user.client))?.username).toBe(user.username);
    expect((await user.client.get('/api/user/profile')).status).toBe(200);
    // whoever held the old token (a stolen cookie) is signed out
    const stale = new TestClient(app.url);
    const staleCall = await stale.request('GET', '/api/user/profile', undefined, {
      cookie: oldCookie,
    });
    expect(staleCall.status).toBe(401);
  });

  it('answers a wrong current password with its own 401 and keeps the session', async () => {
    const { client } = await signedInClient(app);
    const response = await client.post('/api/user/change-password', {
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    // not the "signed out" code: the web app keeps the user signed in
    expect(response.body).toEqual({
      error: { code: 'INVALID_PASSWORD', message: 'Current password is incorrect' },
    });
    expect(await currentUserOf(client)).not.toBeNull();
  });

  it('holds the new password to the rule registration uses', async () => {
    const { client } = await signedInClient(app);
    const cases: Array<[unknown, string]> = [
      [
        { currentPassword: SIGNED_IN_PASSWORD, newPassword: 'short' },
        'newPassword: must be at least 8 characters',
      ],
      [
        { currentPassword: SIGNED_IN_PASSWORD, newPassword: 'x'.repeat(257) },
        'newPassword: must be at most 256 characters',
      ],
      [{ currentPassword: '', newPassword: NEW_PASSWORD }, 'currentPassword: is required'],
      [
        { newPassword: NEW_PASSWORD },
        'currentPassword: Invalid input: expected string, received undefined',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await client.post('/api/user/change-password', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({ error: { code: 'BAD_REQUEST', message } });
    }
    const register = await app.client().post('/api/auth/register', {
      username: uniqueName('rule'),
      password: 'short',
    });
    expect(register.body).toMatchObject({
      error: { message: 'password: must be at least 8 characters' },
    });
  });

  it('stops guessing after 10 wrong current passwords', async () => {
    const { client } = await signedInClient(app);
    const attempt = (currentPassword: string) =>
      client.post('/api/user/change-password', { currentPassword, newPassword: NEW_PASSWORD });
    for (let index = 0; index < 10; index++) {
      expect((await attempt(`wrong guess ${index}`)).status).toBe(401);
    }
    const limited = await attempt(SIGNED_IN_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({
      error: { message: 'Too many password change attempts. Please try again later.' },
    });
  });

  it('gives a right password back, so its owner is never held up', async () => {
    const { client } = await signedInClient(app);
    for (let index = 0; index < 12; index++) {
      const response = await client.post('/api/user/change-password', {
        currentPassword: SIGNED_IN_PASSWORD,
        newPassword: SIGNED_IN_PASSWORD,
      });
      expect(response.status).toBe(200);
    }
  });
});
