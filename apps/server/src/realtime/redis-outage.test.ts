import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

import { afterAll, describe, expect, it } from 'vitest';

import { createRedisInvalidationBus, invalidationChannel } from '../lib/invalidation-bus.js';
import { connectRedis, waitForRedis } from '../lib/redis.js';
import { startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import { signedInClient } from '../test/factories.js';
import { scaled } from '../test/slow-machine.js';
import {
  openSocket,
  type RecordingSocket,
  waitForConnect,
  waitForEvent,
} from './socket-test-client.js';
import { freePort } from '../test/ports.js';

// a private redis-server this test may stop and start (the shared one must stay up)
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

/** Private servers still running, stopped after the suite. */
const running = new Set<ChildProcess>();

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  running.add(child);
  const probe = connectRedis(`redis://127.0.0.1:${port}`, 'outage-probe');
  try {
    // a busy machine (CI runs the web tests and lint beside this suite) once took over 5 s to
    // start redis-server and let the probe's backed-off retry reach it
    await waitForRedis(probe, scaled(15_000));
  } finally {
    probe.disconnect();
  }
  return child;
}

function stopRedis(child: ChildProcess): Promise<void> {
  running.delete(child);
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const visitor = () => uniqueName('visitor').padEnd(20, '0');
const samePage =
  (page: string) => (payload: { anonymous: { currentPages: Record<string, number> } }) =>
    payload.anonymous.currentPages[page] === 1;

describe.skipIf(!hasRedisServer)('Redis outage', () => {
  const apps: TestApp[] = [];
  let adminSocket: RecordingSocket | undefined;
  afterAll(async () => {
    adminSocket?.close();
    await Promise.all(apps.map((app) => app.stop()));
    await Promise.all([...running].map(stopRedis));
  });

  it(
    'keeps serving locally while Redis is down and shares again when it returns',
    async () => {
      const port = await freePort();
      const redis = await startRedis(port);
      const shared = { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: uniqueName('outage') };
      const appA = await startTestApp(shared);
      const appB = await startTestApp(shared);
      apps.push(appA, appB);
      const admin = await signedInClient(appB, 'admin');
      adminSocket = openSocket(appB.url, { cookie: admin.client.cookieHeader });
      await waitForConnect(adminSocket.socket);
      const guest = (app: TestApp, page: string) =>
        app.client().post('/api/anonymous-heartbeat', { currentPage: page, visitorId: visitor() });

      // healthy: A's heartbeat reaches B's admin
      const before = `/before/${uniqueName('p')}`;
      const beforeUpdate = waitForEvent(adminSocket.socket, 'presence:update', samePage(before));
      expect((await guest(appA, before)).status).toBe(200);
      await beforeUpdate;

      // Redis gone: both processes keep answering, B's admin still hears B's own visitors
      await stopRedis(redis);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const during = `/during/${uniqueName('p')}`;
      const duringUpdate = waitForEvent(
        adminSocket.socket,
        'presence:update',
        samePage(during),
        3000,
      );
      expect((await guest(appB, during)).status).toBe(200);
      await duringUpdate;
      expect((await guest(appA, `/during/${uniqueName('p')}`)).status).toBe(200);
      expect((await admin.client.get('/api/active-users')).status).toBe(200);

      // Redis back: the clients reconnect (and resubscribe) by themselves
      await startRedis(port);
      const after = `/after/${uniqueName('p')}`;
      const afterUpdate = waitForEvent(
        adminSocket.socket,
        'presence:update',
        samePage(after),
        10_000,
      );
      const deadline = Date.now() + scaled(10_000);
      let isDelivered = false;
      void afterUpdate.then(() => (isDelivered = true));
      const id = visitor();
      while (!isDelivered && Date.now() < deadline) {
        await appA.client().post('/api/anonymous-heartbeat', { currentPage: after, visitorId: id });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await afterUpdate;
    },
    scaled(45_000),
  );

  it(
    'lets a process started while Redis is down join in when Redis comes up',
    async () => {
      const port = await freePort();
      const shared = { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: uniqueName('late') };
      // no Redis yet: B starts anyway, on its own view
      const appB = await startTestApp(shared);
      apps.push(appB);
      const admin = await signedInClient(appB, 'admin');
      const socket = openSocket(appB.url, { cookie: admin.client.cookieHeader });
      try {
        await waitForConnect(socket.socket);
        const alone = `/alone/${uniqueName('p')}`;
        const aloneUpdate = waitForEvent(
          socket.socket,
          'presence:update',
          samePage(alone),
          scaled(3000),
        );
        expect(
          (
            await appB.client().post('/api/anonymous-heartbeat', {
              currentPage: alone,
              visitorId: visitor(),
            })
          ).status,
        ).toBe(200);
        await aloneUpdate;

        // Redis comes up, then a second process: its visitors reach B's admin
        await startRedis(port);
        const appA = await startTestApp(shared);
        apps.push(appA);
        const joined = `/joined/${uniqueName('p')}`;
        const joinedUpdate = waitForEvent(
          socket.socket,
          'presence:update',
          samePage(joined),
          scaled(10_000),
        );
        let isDelivered = false;
        void joinedUpdate.then(() => (isDelivered = true));
        const id = visitor();
        const deadline = Date.now() + scaled(10_000);
        while (!isDelivered && Date.now() < deadline) {
          await appA
            .client()
            .post('/api/anonymous-heartbeat', { currentPage: joined, visitorId: id });
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        await joinedUpdate;
      } finally {
        socket.close();
      }
    },
    scaled(45_000),
  );

  it(
    'subscribes the session invalidation bus once Redis comes up',
    async () => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}`;
      const prefix = uniqueName('bus');
      const publisher = connectRedis(url, 'bus-pub');
      const subscriber = connectRedis(url, 'bus-sub', { subscriber: true });
      const other = connectRedis(url, 'bus-other');
      try {
        const bus = createRedisInvalidationBus(publisher, subscriber, prefix);
        const heard: string[] = [];
        bus.subscribe((userId) => heard.push(userId));
        await new Promise((resolve) => setTimeout(resolve, 500));

        // another process's publish once Redis is up reaches this bus
        await startRedis(port);
        await waitForRedis(other, scaled(15_000));
        const deadline = Date.now() + scaled(10_000);
        while (!heard.includes('user-1') && Date.now() < deadline) {
          await other.publish(invalidationChannel(prefix), 'user-1');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(heard).toContain('user-1');
      } finally {
        [publisher, subscriber, other].forEach((client) => client.disconnect());
      }
    },
    scaled(30_000),
  );
});
