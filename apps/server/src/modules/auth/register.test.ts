import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError, RegisterResponse } from '@portfolio/types';

import { mailOutbox, users } from '../../db/schema.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

const PASSWORD = 'password-1234';

/** The outbox's message of this kind to this address, once queued (after the answer). */
async function outboxMailTo(email: string, kind: string) {
  for (let tries = 0; tries < 100; tries++) {
    const [row] = await app.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(sql`lower(${mailOutbox.recipient}) = lower(${email})`, eq(mailOutbox.kind, kind)));
    if (row) {
      return row;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${kind} mail to ${email}`);
}

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

  it('answers a used email as a free one, makes the account without it and tells its owner', async () => {
    const owner = await signedInClient(app);
    const email = `${owner.username}@example.com`;
    // only a confirmed address gets mail (confirming has its own test)
    await app.deps.database.db
      .update(users)
      .set({ email, emailConfirmedAt: new Date() })
      .where(eq(users.id, owner.id));

    const freeName = uniqueName();
    const free = await register({
      username: freeName,
      email: `${freeName}@example.com`,
      password: PASSWORD,
    });
    const takenName = uniqueName();
    const taken = await register({
      username: takenName,
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual({
      message: 'Registration successful',
      user: { id: expect.any(String) as string, username: takenName, role: 'user' },
    });
    expect(Object.keys(taken.body)).toEqual(Object.keys(free.body));

    const newAccount = await app.deps.users.findById(taken.body.user.id);
    expect(newAccount?.email).toBeNull();
    expect((await app.deps.users.findById(owner.id))?.email).toBe(email);
    // the new account signs in; the address stays with its owner
    expect(
      (await app.client().post('/api/auth/login', { username: takenName, password: PASSWORD }))
        .status,
    ).toBe(200);

    const notice = await outboxMailTo(email, 'registration-attempt');
    expect(notice.subject).toMatch(/Someone tried to register with your email address/);
    expect(notice.text).toContain(`Hello ${owner.username},`);
    expect(notice.text).toContain(`${app.url}/login`);
    expect(notice.text).toContain(`${app.url}/forgot-password`);
    // the free address got its confirmation link, the taken one nothing else
    await outboxMailTo(`${freeName}@example.com`, 'email-confirm');
    const toOwner = await app.deps.database.db
      .select()
      .from(mailOutbox)
      .where(sql`lower(${mailOutbox.recipient}) = lower(${email})`);
    expect(toOwner.map((row) => row.kind)).toEqual(['registration-attempt']);
  });

  it.each([
    ['a display name', 'victim.example.com<evil@attacker.test>'],
    ['an encoded word', '=?utf-8?b?ZXZpbEBhdHRhY2tlci50ZXN0?=@example.com'],
    ['a quoted local part', '"evil"@example.com'],
    ['a list', 'me,evil@attacker.test'],
  ])('answers 400 for an address with %s', async (_case, email) => {
    const response = await register({ username: uniqueName(), email, password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please enter a valid email address');
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
