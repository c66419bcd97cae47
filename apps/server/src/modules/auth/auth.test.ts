import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../../test/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

describe('register → login → current-user → logout', () => {
  it('walks the whole account flow with a session cookie', async () => {
    const client = app.client();
    const username = uniqueName();
    const registered = await client.post('/api/auth/register', {
      username,
      email: `${username}@example.com`,
      password: 'password-1234',
    });
    expect(registered.status).toBe(201);

    // a guest is told so with a 200, not an error
    const guest = await client.get('/api/auth/current-user');
    expect(guest.status).toBe(200);
    expect(guest.body).toEqual({ user: null });

    const login = await client.post('/api/auth/login', {
      username: username.toUpperCase(),
      password: 'password-1234',
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { username, role: 'user' } });
    const setCookie = login.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/__Host-sid=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const current = await client.get('/api/auth/current-user');
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ user: { username, role: 'user' } });

    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect(await currentUserOf(client)).toBeNull();
  });
});
