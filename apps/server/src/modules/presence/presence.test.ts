import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ActiveUsersResponse } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

const visitorId = () => uniqueName('visitor').padEnd(24, 'x');

async function activeUsers(admin: TestClient) {
  const response = await admin.get('/api/active-users');
  expect(response.status).toBe(200);
  return ActiveUsersResponse.parse(response.body);
}

describe('active users', () => {
  let app: TestApp;
  beforeAll(async () => {
    // a prefix of its own: with REDIS_URL, other test files share the Redis server
    app = await startTestApp({ redisPrefix: uniqueName('presence') });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers who is on which page: users once across tabs, guests by visitor id', async () => {
    const admin = await signedInClient(app, 'admin');
    const alice = await signedInClient(app, 'user');
    const bob = await signedInClient(app, 'subscriber');
    const aliceSecondTab = alice.client;

    expect(
      (await alice.client.post('/api/auth/heartbeat', { currentPage: '/games' })).body,
    ).toEqual({ ok: true });
    expect(
      (await aliceSecondTab.post('/api/auth/heartbeat', { currentPage: '/profile' })).status,
    ).toBe(200);
    expect((await bob.client.post('/api/auth/heartbeat', { currentPage: '/Gallery' })).status).toBe(
      200,
    );

    const guestOne = visitorId();
    const guestTwo = visitorId();
    const guests = app.client();
    expect(
      (
        await guests.post('/api/anonymous-heartbeat', {
          currentPage: '/games',
          visitorId: guestOne,
        })
      ).status,
    ).toBe(200);
    expect(
      (await guests.post('/api/anonymous-heartbeat', { currentPage: '/', visitorId: guestTwo }))
        .status,
    ).toBe(200);
    // the same guest moves on: still one guest, on the newer page
    expect(
      (
        await guests.post('/api/anonymous-heartbeat', {
          currentPage: '/Tutorials',
          visitorId: guestOne,
        })
      ).status,
    ).toBe(200);
    // no visitor id: the address and browser identify the guest (hashed), twice is still one
    const noId = {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    };
    expect((await guests.post('/api/anonymous-heartbeat', { currentPage: '/' }, noId)).status).toBe(
      200,
    );
    expect((await guests.post('/api/anonymous-heartbeat', { currentPage: '/' }, noId)).status).toBe(
      200,
    );

    const active = await activeUsers(admin.client);
    expect(active.totalActive).toBe(5);
    expect(active.anonymous).toEqual({ count: 3, currentPages: { '/Tutorials': 1, '/': 2 } });
    // newest first; the admin sent no heartbeat, so is not listed
    expect(
      active.authenticated.map(({ username, role, current_page }) => ({
        username,
        role,
        current_page,
      })),
    ).toEqual([
      { username: bob.username, role: 'subscriber', current_page: '/Gallery' },
      { username: alice.username, role: 'user', current_page: '/profile' },
    ]);
    for (const user of active.authenticated) {
      expect(Math.abs(Date.parse(user.last_seen) - Date.now())).toBeLessThan(10_000);
    }
  });

  it('counts a signed-in tab that still sends guest heartbeats as the user', async () => {
    const admin = await signedInClient(app, 'admin');
    const carol = await signedInClient(app, 'user');
    const page = `/games/${uniqueName('page')}`;
    expect(
      (
        await carol.client.post('/api/anonymous-heartbeat', {
          currentPage: page,
          visitorId: visitorId(),
        })
      ).status,
    ).toBe(200);
    const active = await activeUsers(admin.client);
    expect(active.authenticated).toContainEqual(
      expect.objectContaining({ username: carol.username, current_page: page }),
    );
    expect(active.anonymous.currentPages[page]).toBeUndefined();
  });

  it('validates heartbeats', async () => {
    const user = await signedInClient(app, 'user');
    const notAPath = await user.client.post<{ error: { message: string } }>('/api/auth/heartbeat', {
      currentPage: 'games',
    });
    expect(notAPath.status).toBe(400);
    expect(notAPath.body.error.message).toBe('currentPage: must be a path starting with /');
    expect((await user.client.post('/api/auth/heartbeat', {})).status).toBe(400);
    const guest = app.client();
    expect(
      (await guest.post('/api/anonymous-heartbeat', { currentPage: '/', visitorId: 'short' }))
        .status,
    ).toBe(400);
    expect((await guest.post('/api/anonymous-heartbeat', { currentPage: '/\n' })).status).toBe(400);
  });

  it('refuses signed-in heartbeats without a session', async () => {
    const response = await app.client().post('/api/auth/heartbeat', { currentPage: '/' });
    expect(response.status).toBe(401);
  });

  it('keeps active users for admins only', async () => {
    expect((await app.client().get('/api/active-users')).status).toBe(401);
    for (const role of ['user', 'subscriber'] as const) {
      const { client } = await signedInClient(app, role);
      expect((await client.get('/api/active-users')).status).toBe(403);
    }
  });
});

describe('one browser across sign-in and sign-out', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ redisPrefix: uniqueName('presence-signin') });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('counts a browser once as it signs in and out: guest → user → gone', async () => {
    const admin = await signedInClient(app, 'admin');
    const browser = app.client();
    const id = visitorId();
    const page = `/${uniqueName('page')}`;
    await browser.post('/api/anonymous-heartbeat', { currentPage: page, visitorId: id });
    expect((await activeUsers(admin.client)).anonymous.currentPages[page]).toBe(1);

    const { username } = await signedInClient(app, { prefix: 'signin', client: browser });
    const beat = await browser.post('/api/auth/heartbeat', { currentPage: page, visitorId: id });
    expect(beat.status).toBe(200);
    let active = await activeUsers(admin.client);
    expect(active.anonymous.currentPages[page]).toBeUndefined();
    expect(active.authenticated.map((user) => user.username)).toContain(username);

    await browser.post('/api/auth/logout');
    active = await activeUsers(admin.client);
    expect(active.authenticated.map((user) => user.username)).not.toContain(username);
    // back to a guest: the same browser shows up as one guest again
    await browser.post('/api/anonymous-heartbeat', { currentPage: page, visitorId: id });
    expect((await activeUsers(admin.client)).anonymous.currentPages[page]).toBe(1);
  });
});
