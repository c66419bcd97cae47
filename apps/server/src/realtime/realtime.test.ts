import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ActiveUsersResponse, GameClickEvent } from '@portfolio/types';

import { startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import { signedInClient } from '../test/factories.js';
import {
  openSocket,
  type RecordingSocket,
  waitForConnect,
  waitForEvent,
} from './socket-test-client.js';

let app: TestApp;
const sockets: RecordingSocket[] = [];
const track = (socket: RecordingSocket) => {
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  app = await startTestApp({ redisPrefix: uniqueName('realtime') });
});
afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await app.stop();
});

describe('admin live push', () => {
  it('pushes presence and game clicks to admin sockets only', async () => {
    const admin = await signedInClient(app, 'admin');
    const user = await signedInClient(app, 'user');
    const adminSocket = track(openSocket(app.url, { cookie: admin.client.cookieHeader }));
    const userSocket = track(openSocket(app.url, { cookie: user.client.cookieHeader }));
    const guestSocket = track(openSocket(app.url));
    await Promise.all([
      waitForConnect(adminSocket.socket),
      waitForConnect(userSocket.socket),
      waitForConnect(guestSocket.socket),
    ]);

    const page = `/games/${uniqueName('page')}`;
    const update = waitForEvent(
      adminSocket.socket,
      'presence:update',
      (payload) => payload.anonymous.currentPages[page] === 1,
    );
    const heartbeat = await app.client().post('/api/anonymous-heartbeat', {
      currentPage: page,
      visitorId: uniqueName('visitor').padEnd(20, '0'),
    });
    expect(heartbeat.status).toBe(200);
    expect(ActiveUsersResponse.parse(await update).totalActive).toBeGreaterThanOrEqual(1);

    const click = waitForEvent(
      adminSocket.socket,
      'game:click',
      (payload) => payload.gameId === 'RocketGame',
    );
    expect((await user.client.post('/api/track-game-click', { gameId: 'RocketGame' })).status).toBe(
      200,
    );
    expect(GameClickEvent.parse(await click)).toMatchObject({
      gameId: 'RocketGame',
      authenticated: true,
    });

    // give any stray delivery time to arrive before asserting nothing did
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(userSocket.received).toEqual([]);
    expect(guestSocket.received).toEqual([]);
    expect(userSocket.socket.connected && guestSocket.socket.connected).toBe(true);
  });

  it('sends a snapshot when an admin connects, and stops pushing after logout', async () => {
    const admin = await signedInClient(app, 'admin');
    const adminSocket = track(openSocket(app.url, { cookie: admin.client.cookieHeader }));
    const snapshot = waitForEvent(adminSocket.socket, 'presence:update', () => true);
    await waitForConnect(adminSocket.socket);
    ActiveUsersResponse.parse(await snapshot);

    expect((await admin.client.post('/api/auth/logout')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    adminSocket.received.length = 0;
    const { client: other } = await signedInClient(app, 'user');
    await other.post('/api/track-game-click', { gameId: 'TopDownRogueLike' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(adminSocket.received).toEqual([]);
  });
});

describe('handshake', () => {
  it('accepts the same origin and refuses a foreign one', async () => {
    const sameOrigin = track(openSocket(app.url, { origin: app.url }));
    await waitForConnect(sameOrigin.socket);

    const foreign = track(openSocket(app.url, { origin: 'https://evil.example' }));
    await expect(waitForConnect(foreign.socket)).rejects.toThrow();
    expect(foreign.socket.connected).toBe(false);

    // the right host with the wrong scheme is another origin too
    const otherScheme = track(openSocket(app.url, { origin: app.url.replace('http:', 'https:') }));
    await expect(waitForConnect(otherScheme.socket)).rejects.toThrow();
  });
});
