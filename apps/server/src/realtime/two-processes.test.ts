import { afterAll, describe, expect, it } from 'vitest';

import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import { signedInClient } from '../test/factories.js';
import {
  openSocket,
  type RecordingSocket,
  waitForConnect,
  waitForEvent,
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
});
