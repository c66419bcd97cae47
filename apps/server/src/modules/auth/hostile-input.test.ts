import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { ApiError } from '@portfolio/types';

import { sessions } from '../../db/schema.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { buildUser, signedInClient } from '../../test/factories.js';
import { captureLogs } from '../../lib/logger.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

const PASSWORD = 'correct horse battery';
const INVALID_CREDENTIALS = {
  error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' },
};

async function countSessions(userId: string): Promise<number> {
  const [row] = await app.deps.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return row?.count ?? 0;
}

/** A registered user who has not logged in yet (so has no session row). */
describe('characters PostgreSQL cannot store', () => {
  it('answers a login with a NUL in the username like wrong credentials, not 500', async () => {
    const response = await app
      .client()
      .post<ApiError>('/api/auth/login', { username: 'ab\u0000c', password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_CREDENTIALS);
  });

  it('answers a registration with a NUL in the email with 400 and the email message', async () => {
    const response = await app.client().post<ApiError>('/api/auth/register', {
      username: uniqueName(),
      email: 'a\u0000@b.co',
      password: PASSWORD,
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Please enter a valid email address',
    });
  });

  it.each([
    ['a NUL in the timezone', { timezone: 'a\u0000b' }, /^deviceInfo\.timezone: /],
    ['a lone surrogate in the language', { language: '\ud800' }, /^deviceInfo\.language: /],
    ['a control character in the user agent', { userAgent: 'x\u001by' }, /^deviceInfo\.userAgent/],
  ])(
    'refuses device info with %s with 400 before creating a session',
    async (_case, deviceInfo, message) => {
      const { username, id } = await buildUser(app);
      const response = await app
        .client()
        .post<ApiError>('/api/auth/login', { username, password: PASSWORD, deviceInfo });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('BAD_REQUEST');
      expect(response.body.error.message).toMatch(message);
      expect(response.body.error.message).toMatch(
        /: must not contain control characters or invalid Unicode$/,
      );
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await countSessions(id)).toBe(0);
    },
  );

  it('leaves no session behind when recording the login fails', async () => {
    const { username, id } = await buildUser(app);
    const recordLogin = vi
      .spyOn(app.deps.users, 'recordLogin')
      .mockRejectedValueOnce(new Error('database went away'));
    const log = captureLogs();
    try {
      const response = await app
        .client()
        .post<ApiError>('/api/auth/login', { username, password: PASSWORD });
      expect(response.status).toBe(500);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await countSessions(id)).toBe(0);
    } finally {
      recordLogin.mockRestore();
      log.restore();
    }
  });
});

describe('usernames outside the username rule at login', () => {
  it('does not let a dotted capital I stand in for i (PostgreSQL lower-cases it to i)', async () => {
    const { username } = await buildUser(app, { prefix: 'ivy' });
    const lookalike = `\u0130${username.slice(1)}`;
    const response = await app
      .client()
      .post<ApiError>('/api/auth/login', { username: lookalike, password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_CREDENTIALS);
  });

  it('answers a name no account can have with the same 401, without asking the database', async () => {
    const findByUsername = vi.spyOn(app.deps.users, 'findByUsername');
    try {
      for (const username of ['ab', 'has space', 'x'.repeat(40), 'emoji\u{1f600}', 'tab\tname']) {
        const response = await app
          .client()
          .post<ApiError>('/api/auth/login', { username, password: PASSWORD });
        expect(response.status, username).toBe(401);
        expect(response.body, username).toEqual(INVALID_CREDENTIALS);
      }
      expect(findByUsername).not.toHaveBeenCalled();
    } finally {
      findByUsername.mockRestore();
    }
  });

  it('still signs in with a valid name in any letter case and surrounding spaces', async () => {
    const { username } = await signedInClient(app);
    const response = await app
      .client()
      .post('/api/auth/login', { username: `  ${username.toUpperCase()} `, password: PASSWORD });
    expect(response.status).toBe(200);
  });
});
