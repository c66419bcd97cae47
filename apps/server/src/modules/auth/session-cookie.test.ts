import { afterEach, describe, expect, it } from 'vitest';

import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const PASSWORD = 'correct horse battery';

/** The Set-Cookie lines for the session cookie when logging in and out over plain HTTP. */
async function sessionCookieLines(publicOrigin: string | undefined) {
  app = await startTestApp({ publicOrigin });
  const client = app.client();
  const username = uniqueName();
  expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(
    201,
  );
  const login = await client.post('/api/auth/login', { username, password: PASSWORD });
  expect(login.status).toBe(200);
  const logout = await client.post('/api/auth/logout');
  expect(logout.status).toBe(200);
  // a stale cookie is cleared by the session middleware
  const stale = await app
    .client()
    .request('GET', '/api/auth/current-user', undefined, { cookie: 'sid=stale-token' });
  const sid = (response: { headers: Headers }) =>
    response.headers.getSetCookie().filter((line) => line.startsWith('sid='));
  return { login: sid(login), logout: sid(logout), stale: sid(stale) };
}

describe('the session cookie', () => {
  it('is Secure whenever PUBLIC_ORIGIN is https, even when the request reached us over HTTP', async () => {
    const lines = await sessionCookieLines('https://portfolio.example');
    for (const [when, cookies] of Object.entries(lines)) {
      expect(cookies, when).toHaveLength(1);
      expect(cookies[0], when).toMatch(/;\s*Secure(;|$)/i);
      expect(cookies[0], when).toMatch(/;\s*HttpOnly(;|$)/i);
    }
  });

  it('is not Secure over plain HTTP when PUBLIC_ORIGIN is http or not set', async () => {
    for (const origin of ['http://localhost:5173', undefined]) {
      const lines = await sessionCookieLines(origin);
      for (const [when, cookies] of Object.entries(lines)) {
        expect(cookies, `${when} ${origin}`).toHaveLength(1);
        expect(cookies[0], `${when} ${origin}`).not.toMatch(/;\s*Secure(;|$)/i);
      }
      await app?.stop();
      app = undefined;
    }
  });
});
