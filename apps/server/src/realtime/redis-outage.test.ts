import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

import { afterAll, describe, expect, it } from 'vitest';

import { connectRedis, waitForRedis } from '../lib/redis.js';
import { signedInClient, startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import {
  openSocket,
  type RecordingSocket,
  waitForConnect,
  waitForEvent,
} from './socket-test-client.js';

// a private redis-server this test may stop and start (the shared one must stay up)
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = connectRedis(`redis://127.0.0.1:${port}`, 'outage-probe');
  try {
    await waitForRedis(probe, 5000);
  } finally {
    probe.disconnect();
  }
  return child;
}

function stopRedis(child: ChildProcess): Promise<void> {
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
  let redis: ChildProcess | undefined;
  const apps: TestApp[] = [];
  let adminSocket: RecordingSocket | undefined;
  afterAll(async () => {
    adminSocket?.close();
    await Promise.all(apps.map((app) => app.stop()));
    if (redis) {
      await stopRedis(redis);
    }
  });

  it('keeps serving locally while Redis is down and shares again when it returns', async () => {
    const port = await freePort();
    redis = await startRedis(port);
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
    redis = undefined;
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
    redis = await startRedis(port);
    const after = `/after/${uniqueName('p')}`;
    const afterUpdate = waitForEvent(
      adminSocket.socket,
      'presence:update',
      samePage(after),
      10_000,
    );
    const deadline = Date.now() + 10_000;
    let isDelivered = false;
    void afterUpdate.then(() => (isDelivered = true));
    const id = visitor();
    while (!isDelivered && Date.now() < deadline) {
      await appA.client().post('/api/anonymous-heartbeat', { currentPage: after, visitorId: id });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await afterUpdate;
  }, 30_000);
});
