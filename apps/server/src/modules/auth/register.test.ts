import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError, RegisterResponse } from '@portfolio/types';

import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

const PASSWORD = 'password-1234';

function register(body: Record<string, unknown>) {
  return app.client().post<RegisterResponse & ApiError>('/api/auth/register', body);
}

describe('POST /api/auth/register', () => {
  it('creates a user with role user and answers 201 with it', async () => {
    const username = uniqueName();
    const response = await register({
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      message: 'Registration successful',
      user: { id: expect.any(String) as string, username, role: 'user' },
    });
    const row = await app.deps.users.findById(response.body.user.id);
    expect(row?.email).toBe(`${username}@example.com`);
    expect(row?.passwordHash).not.toContain(PASSWORD);
  });

  it.each([
    ['missing username', { password: PASSWORD }, /^username: /],
    [
      'short username',
      { username: 'ab', password: PASSWORD },
      /^username: must be at least 3 characters$/,
    ],
    [
      'username with spaces',
      { username: 'a b c', password: PASSWORD },
      /^username: may contain only/,
    ],
    ['missing password', { username: 'valid_name' }, /^password: /],
    [
      'short password',
      { username: 'valid_name', password: 'short' },
      /^password: must be at least 8 characters$/,
    ],
  ])('answers 400 with `field: message` for %s', async (_case, body, message) => {
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('BAD_REQUEST');
    expect(response.body.error.message).toMatch(message);
  });

  it('answers 400 for an email that does not look like one', async () => {
    const response = await register({
      username: uniqueName(),
      email: 'not an email',
      password: PASSWORD,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please enter a valid email address');
  });

  it('answers 409 for a username taken in any letter case', async () => {
    const username = uniqueName();
    expect((await register({ username, password: PASSWORD })).status).toBe(201);
    const again = await register({ username: username.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('That username is already taken');
  });

  it('answers 409 for an email registered in any letter case', async () => {
    const email = `${uniqueName()}@example.com`;
    expect((await register({ username: uniqueName(), email, password: PASSWORD })).status).toBe(
      201,
    );
    const again = await register({
      username: uniqueName(),
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('That email is already registered');
  });

  it('treats an empty email as none, for any number of users', async () => {
    const first = await register({ username: uniqueName(), email: '', password: PASSWORD });
    const second = await register({ username: uniqueName(), email: '', password: PASSWORD });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect((await app.deps.users.findById(first.body.user.id))?.email).toBeNull();
  });

  it('stores the username trimmed, so the user can log in with it', async () => {
    const username = uniqueName();
    const response = await register({ username: `  ${username} `, password: PASSWORD });
    expect(response.status).toBe(201);
    expect(response.body.user.username).toBe(username);
    expect(
      (await app.client().post('/api/auth/login', { username, password: PASSWORD })).status,
    ).toBe(200);
  });
});
