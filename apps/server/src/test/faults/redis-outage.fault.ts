import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ActiveUsersResponse } from '@portfolio/types';

import {
  type AppProcess,
  Browser,
  FAULT_ADMIN,
  signIn,
  sleep,
  startApp,
  startPostgres,
  startRedis,
} from './services.js';

/**
 * Two server processes share a private Redis and PostgreSQL. Redis is stopped for 10 s while a
 * user heartbeats on both and an admin watches on the second; a logout happens on the first
 * during the outage.
 */
let pg: Awaited<ReturnType<typeof startPostgres>>;
let redis: Awaited<ReturnType<typeof startRedis>>;
let a: AppProcess;
let b: AppProcess;

beforeAll(async () => {
  pg = await startPostgres();
  redis = await startRedis();
  const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url, REDIS_PREFIX: 'fault-redis' };
  a = await startApp(env);
  b = await startApp(env);
});
afterAll(async () => {
  await Promise.all([a?.terminate(), b?.terminate()]);
  await redis?.stop();
  pg?.destroy();
});

/** Resolves how long after `since` the admin socket saw a presence update that satisfies `accept`. */
function waitForPresence(
  socket: Socket,
  accept: (view: ActiveUsersResponse) => boolean,
  timeoutMs: number,
) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('presence:update', listener);
      reject(new Error(`no matching presence:update within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (view: ActiveUsersResponse) => {
      if (accept(view)) {
        clearTimeout(timer);
        socket.off('presence:update', listener);
        resolve();
      }
    };
    socket.on('presence:update', listener);
  });
}

describe('Redis stopped for 10 s', () => {
  it('keeps serving, comes back within 5 s, and makes a logout during the outage effective everywhere', async () => {
    const admin = await signIn(b, FAULT_ADMIN.username, FAULT_ADMIN.password, false);
    const watcher = io(b.url, {
      transports: ['websocket'],
      extraHeaders: {
        origin: b.url,
        cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      watcher.once('connect', () => resolve());
      watcher.once('connect_error', reject);
    });

    const stayer = await signIn(a, 'fault_stayer', 'stayer password 1');
    const leaver = await signIn(a, 'fault_leaver', 'leaver password 1');
    const statuses: number[] = [];
    let running = true;
    // both users heartbeat on both processes, like tabs behind a load balancer
    const heartbeats = (async () => {
      while (running) {
        for (const app of [a, b]) {
          const page = { currentPage: '/games' };
          statuses.push((await stayer.call(app.url, 'POST', '/api/auth/heartbeat', page)).status);
          const left = await leaver.call(app.url, 'POST', '/api/auth/heartbeat', page);
          statuses.push(left.status);
        }
        // a tab's pace, well inside each user's 120 heartbeats a minute
        await sleep(1500);
      }
    })();

    // the admin on B sees a user who heartbeats on A (cross-process, through Redis)
    await waitForPresence(
      watcher,
      (view) => view.authenticated.some((u) => u.username === 'fault_stayer'),
      5000,
    );
    const adminCalls: number[] = [];

    await redis.stop();
    await sleep(2000);
    // logout on A while Redis is down; B has the session cached
    expect((await leaver.call(a.url, 'POST', '/api/auth/logout')).status).toBe(200);
    const leaverCookie = [...leaver.cookies];
    for (let i = 0; i < 8; i++) {
      adminCalls.push((await admin.call(b.url, 'GET', '/api/active-users')).status);
      await sleep(1000);
    }
    const restartedAt = Date.now();
    await redis.start();

    // presence and cross-process delivery: a user who only heartbeats on A reaches the admin on B
    const newcomer = await signIn(a, 'fault_newcomer', 'newcomer password 1');
    const seen = waitForPresence(
      watcher,
      (view) => view.authenticated.some((u) => u.username === 'fault_newcomer'),
      5000,
    );
    const newcomerBeats = setInterval(() => {
      void newcomer.call(a.url, 'POST', '/api/auth/heartbeat', { currentPage: '/gallery' });
    }, 250);
    await seen;
    clearInterval(newcomerBeats);
    const deliveredWithinMs = Date.now() - restartedAt;

    // the logged-out cookie is refused on B too, within seconds of Redis' return
    const stale = new Browser();
    leaverCookie.forEach(([k, v]) => stale.cookies.set(k, v));
    let refusedOnB = false;
    while (Date.now() - restartedAt < 5000 && !refusedOnB) {
      // a call only a signed-in user may make (current-user answers a guest 200 { user: null })
      refusedOnB = (await stale.call(b.url, 'GET', '/api/user/profile')).status === 401;
      await sleep(200);
    }
    running = false;
    await heartbeats;
    watcher.disconnect();

    expect(refusedOnB).toBe(true);
    expect(deliveredWithinMs).toBeLessThan(5000);
    expect(adminCalls.every((status) => status === 200)).toBe(true);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    // before the logout every heartbeat was accepted; after it only 401s (never a 5xx)
    expect(statuses.every((status) => status === 200 || status === 401)).toBe(true);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });
});
