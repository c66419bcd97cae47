import { afterAll, describe, expect, it } from 'vitest';

import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import { signedInClient } from '../test/factories.js';
import { buildPublishedGame } from '../test/factories.js';
import {
  openRoomsSocket,
  openSocket,
  type RecordingSocket,
  roomsConnected,
  roomsRequest,
  waitForConnect,
  waitForEvent,
  waitForRoomsEvent,
} from './socket-test-client.js';

// two app instances sharing PostgreSQL and Redis, as two processes behind a load balancer would
const isShared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!isShared)('two server processes', () => {
  const apps: TestApp[] = [];
  let socket: RecordingSocket | undefined;
  afterAll(async () => {
    socket?.close();
    await Promise.all(apps.map((app) => app.stop()));
  });

  it('delivers a heartbeat on one process to an admin socket on the other at once', async () => {
    const redisPrefix = uniqueName('two-processes');
    const appA = await startTestApp({ redisPrefix });
    const appB = await startTestApp({ redisPrefix });
    apps.push(appA, appB);

    const admin = await signedInClient(appB, 'admin');
    socket = openSocket(appB.url, { cookie: admin.client.cookieHeader });
    await waitForConnect(socket.socket);
    // let the snapshot sent on connect go by
    await new Promise((resolve) => setTimeout(resolve, 200));

    const user = await signedInClient(appA, 'user');
    const page = `/games/${uniqueName('page')}`;
    const started = Date.now();
    const update = waitForEvent(
      socket.socket,
      'presence:update',
      (payload) =>
        payload.authenticated.some(
          (entry) => entry.username === user.username && entry.current_page === page,
        ),
      10_000,
    );
    expect((await user.client.post('/api/auth/heartbeat', { currentPage: page })).status).toBe(200);
    await update;
    // pushed at once (coalesced to one a second), not at the next 30 s heartbeat; the margin is
    // for a busy machine
    expect(Date.now() - started).toBeLessThan(10_000);

    // and process B's own view (the shared store) agrees
    const active = await admin.client.get<{ authenticated: Array<{ username: string }> }>(
      '/api/active-users',
    );
    expect(active.body.authenticated.map((entry) => entry.username)).toContain(user.username);
  });

  it('ends the sessions of a user deleted on one process on the other at once', async () => {
    const redisPrefix = uniqueName('two-processes');
    const appA = await startTestApp({ redisPrefix });
    const appB = await startTestApp({ redisPrefix });
    apps.push(appA, appB);

    const member = await signedInClient(appB, 'admin');
    // process B now holds the session in memory
    expect(await currentUserOf(member.client)).not.toBeNull();
    const memberSocket = openSocket(appB.url, { cookie: member.client.cookieHeader });
    try {
      await waitForConnect(memberSocket.socket);
      const dropped = new Promise<string>((resolve) =>
        memberSocket.socket.once('disconnect', (reason) => resolve(reason)),
      );

      const admin = await signedInClient(appA, 'admin');
      expect((await admin.client.delete(`/api/users/${member.id}`)).status).toBe(200);

      await expect(dropped).resolves.toBe('io server disconnect');
      expect(await currentUserOf(member.client)).toBeNull();
    } finally {
      memberSocket.close();
    }
  });

  it('shares a room between a player on one process and a player on the other', async () => {
    const redisPrefix = uniqueName('two-processes');
    const appA = await startTestApp({ redisPrefix });
    const appB = await startTestApp({ redisPrefix });
    apps.push(appA, appB);
    const admin = await signedInClient(appA, 'admin');
    const gameId = await buildPublishedGame(admin.client);
    // process B learns of the new game through the bus
    const userA = await signedInClient(appA, 'user');
    const userB = await signedInClient(appB, 'user');
    const socketA = openRoomsSocket(appA.url, gameId, { cookie: userA.client.cookieHeader });
    const socketB = openRoomsSocket(appB.url, gameId, { cookie: userB.client.cookieHeader });
    try {
      await roomsConnected(socketA);
      await expect.poll(() => appB.deps.gameHost.catalogue.get(gameId)?.game.published).toBe(true);
      await roomsConnected(socketB);
      const created = await roomsRequest(socketA, 'room:create', { private: true });
      if (!created.ok) {
        throw new Error(created.error.message);
      }
      const joinSeen = waitForRoomsEvent(socketA, 'room:join');
      const joined = await roomsRequest(socketB, 'room:join', { code: created.room.code });
      expect(joined).toMatchObject({ ok: true, room: { code: created.room.code } });
      expect((await joinSeen).player.name).toBe(userB.username);
      const move = waitForRoomsEvent(socketA, 'room:message');
      await roomsRequest(socketB, 'room:send', { type: 'move', data: [1, 2] });
      expect((await move).data).toEqual([1, 2]);
      // both processes list the room
      const listed = await admin.client.get<{ rooms: Array<{ code: string; players: number }> }>(
        '/api/admin/rooms',
      );
      expect(listed.body.rooms.find((room) => room.code === created.room.code)?.players).toBe(2);
    } finally {
      socketA.disconnect();
      socketB.disconnect();
    }
  });
});
