import { MULTIPLAYER_NAMESPACES } from '@portfolio/types/multiplayer';
import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  currentUserOf,
  startTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

const PASSWORD = 'correct horse battery';

/** The Set-Cookie lines of each site cookie when registering, logging in and out, and for a stale cookie. */
async function cookieLines(app: TestApp) {
  const client = app.client();
  const username = uniqueName();
  expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(
    201,
  );
  const login = await client.post('/api/auth/login', { username, password: PASSWORD });
  expect(login.status).toBe(200);
  // the site's own cookies (a partitioned copy is only ever expired: see the planted tests)
  const [session = '', device = ''] = login.headers.getSetCookie().filter(isUnpartitioned);
  const sessionName = session.slice(0, session.indexOf('='));
  const logout = await client.post('/api/auth/logout');
  expect(logout.status).toBe(200);
  // a stale cookie is cleared by the session middleware
  const stale = await app
    .client()
    .request('GET', '/api/auth/current-user', undefined, { cookie: `${sessionName}=stale-token` });
  const named = (response: { headers: Headers }) =>
    response.headers
      .getSetCookie()
      .filter((line) => line.startsWith(`${sessionName}=`) && isUnpartitioned(line));
  return {
    sessionName,
    deviceName: device.slice(0, device.indexOf('=')),
    lines: { login: [session], device: [device], logout: named(logout), stale: named(stale) },
  };
}

const isPartitioned = (line: string) => /;\s*Partitioned(;|$)/i.test(line);
const isUnpartitioned = (line: string) => !isPartitioned(line);

/** The Set-Cookie lines of an answer that expire a partitioned `name`. */
function partitionedClearings(response: { headers: Headers }, name: string): string[] {
  return response.headers
    .getSetCookie()
    .filter((line) => line.startsWith(`${name}=;`) && isPartitioned(line));
}

/** The session cookie `client` holds, as `name=value`. */
function sessionPair(client: TestClient): string {
  const pair = client.cookieHeader.split('; ').find((cookie) => /^(__Host-)?sid=/.test(cookie));
  if (!pair) {
    throw new Error('no session cookie');
  }
  return pair;
}

describe("the site's cookies", () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('are __Host- cookies (Secure, Path=/, no Domain) over https and on loopback hosts', async () => {
    for (const origin of ['https://portfolio.example', 'http://localhost:5173', undefined]) {
      app = await startTestApp({ publicOrigin: origin });
      const { sessionName, deviceName, lines } = await cookieLines(app);
      expect(sessionName, `${origin}`).toBe('__Host-sid');
      expect(deviceName, `${origin}`).toBe('__Host-did');
      for (const [when, cookies] of Object.entries(lines)) {
        expect(cookies, `${when} ${origin}`).toHaveLength(1);
        expect(cookies[0], `${when} ${origin}`).toMatch(/;\s*Secure(;|$)/i);
        expect(cookies[0], `${when} ${origin}`).toMatch(/;\s*HttpOnly(;|$)/i);
        expect(cookies[0], `${when} ${origin}`).toMatch(/;\s*Path=\/(;|$)/i);
        expect(cookies[0], `${when} ${origin}`).not.toMatch(/;\s*Domain=/i);
      }
      await app.stop();
      app = undefined;
    }
  });

  it('fall back to plain names without Secure for a plain-http site on another host name', async () => {
    app = await startTestApp({ publicOrigin: 'http://portfolio.lan:3000' });
    const { sessionName, deviceName, lines } = await cookieLines(app);
    expect(sessionName).toBe('sid');
    expect(deviceName).toBe('did');
    for (const [when, cookies] of Object.entries(lines)) {
      expect(cookies, when).toHaveLength(1);
      expect(cookies[0], when).not.toMatch(/;\s*Secure(;|$)/i);
      expect(cookies[0], when).toMatch(/;\s*Path=\/(;|$)/i);
    }
  });
});

describe('a cookie planted beside the session', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  /** GET /api/auth/current-user with exactly this Cookie header. */
  const currentUserWith = (cookie: string) =>
    app
      .client()
      .request<{ user: { username: string } | null }>('GET', '/api/auth/current-user', undefined, {
        cookie,
      });

  it('uses the valid session of two, in either order, and never clears it', async () => {
    const { client, username } = await signedInClient(app);
    const real = sessionPair(client);
    const name = real.slice(0, real.indexOf('='));
    for (const cookie of [`${name}=junk; ${real}`, `${real}; ${name}=junk`]) {
      const response = await currentUserWith(cookie);
      expect(response.body.user?.username, cookie).toBe(username);
      expect(response.headers.getSetCookie(), cookie).toEqual([]);
    }
    // the heartbeat fast path reads cookies the same way
    for (const cookie of [`${name}=junk; ${real}`, `${real}; ${name}=junk`]) {
      const beat = await app
        .client()
        .request('POST', '/api/auth/heartbeat', { currentPage: '/' }, { cookie });
      expect(beat.status, cookie).toBe(200);
      expect(beat.headers.getSetCookie(), cookie).toEqual([]);
    }
    // and the real cookie still works afterwards
    expect((await currentUserOf(client))?.username).toBe(username);
  });

  it('ignores what a game can plant: `sid=junk; path=/api` leaves the visitor signed in', async () => {
    const { client, username } = await signedInClient(app);
    const real = sessionPair(client);
    // the browser sends the more specific path first
    const response = await currentUserWith(`sid=junk; ${real}`);
    expect(response.body.user?.username).toBe(username);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("does not trust a plain `sid` at all: an attacker's own valid token is not a session", async () => {
    const attacker = await signedInClient(app);
    const token = sessionPair(attacker.client).split('=')[1] ?? '';
    const response = await currentUserWith(`sid=${token}`);
    expect(response.status).toBe(200);
    expect(response.body.user).toBeNull();
  });

  it('answers two live sessions as a guest once, expiring only the partitioned (planted) copy', async () => {
    const victim = await signedInClient(app);
    const attacker = await signedInClient(app);
    const real = sessionPair(victim.client);
    const name = real.slice(0, real.indexOf('='));
    // a game's `__Host-sid=<attacker's token>; Partitioned` comes beside the real cookie
    const both = `${sessionPair(attacker.client)}; ${real}`;
    const response = await currentUserWith(both);
    expect(response.body.user).toBeNull();
    // the site never sets a partitioned cookie: only that copy is expired, the real one stays
    const lines = response.headers.getSetCookie();
    expect(lines).toHaveLength(1);
    expect(partitionedClearings(response, name)).toEqual(lines);
    expect(lines[0]).toMatch(/;\s*Secure(;|$)/i);
    expect(lines[0]).toMatch(/;\s*Path=\/(;|$)/i);
    expect(lines[0]).toMatch(/;\s*Expires=Thu, 01 Jan 1970/i);
    // the heartbeat fast path does the same
    const beat = await app
      .client()
      .request('POST', '/api/anonymous-heartbeat', { currentPage: '/' }, { cookie: both });
    expect(partitionedClearings(beat, name)).toHaveLength(1);
    expect(beat.headers.getSetCookie().filter(isUnpartitioned)).toEqual([]);
    // with the copy gone the browser sends the real cookie alone: the player is back
    expect((await currentUserOf(victim.client))?.username).toBe(victim.username);
  });

  it('expires every copy of the session cookie when signing in and out, so a planted one cannot lock a player out', async () => {
    const attacker = await signedInClient(app);
    const planted = sessionPair(attacker.client);
    const name = planted.slice(0, planted.indexOf('='));
    const client = app.client();
    const username = uniqueName();
    expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(
      201,
    );
    // the player signs in while the planted copy is still sent
    const login = await client.request(
      'POST',
      '/api/auth/login',
      { username, password: PASSWORD },
      { cookie: planted },
    );
    expect(login.status).toBe(200);
    const lines = login.headers.getSetCookie().filter((line) => line.startsWith(`${name}=`));
    // first the planted copy expires, then the new session is set: in this order a browser
    // keeps the new one
    expect(lines).toHaveLength(2);
    expect(partitionedClearings(login, name)).toEqual([lines[0]]);
    expect(lines[1]).not.toMatch(/;\s*Partitioned/i);
    expect((await currentUserOf(client))?.username).toBe(username);
    const logout = await client.post('/api/auth/logout');
    expect(partitionedClearings(logout, name)).toHaveLength(1);
    expect(
      logout.headers
        .getSetCookie()
        .filter((line) => line.startsWith(`${name}=;`) && isUnpartitioned(line)),
    ).toHaveLength(1);
  });

  it('joins a live game with the valid session of two (Socket.IO handshake)', async () => {
    const { client } = await signedInClient(app);
    const real = sessionPair(client);
    const name = real.slice(0, real.indexOf('='));
    for (const cookie of [`${name}=junk; ${real}`, `${real}; ${name}=junk`]) {
      const socket = io(app.url + MULTIPLAYER_NAMESPACES.RocketGame, {
        transports: ['websocket'],
        extraHeaders: { cookie, origin: app.url },
        forceNew: true,
        reconnection: false,
      });
      try {
        const outcome = await new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve('timeout'), 3000);
          socket.once('welcome', () => {
            clearTimeout(timer);
            resolve('welcome');
          });
          socket.once('connect_error', (error) => {
            clearTimeout(timer);
            resolve(`refused: ${error.message}`);
          });
        });
        expect(outcome, cookie).toBe('welcome');
      } finally {
        socket.disconnect();
      }
    }
  });
});
