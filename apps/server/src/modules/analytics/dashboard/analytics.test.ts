import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type DailyStat, VisitorStatsResponse } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient, uniqueName } from '../../../test/harness.js';
import { signedInClient } from '../../../test/factories.js';
import { dayOf } from '../days.js';

let app: TestApp;
let admin: TestClient;
/** PGlite gives this file a database of its own; a shared PostgreSQL also sees other test files. */
let isIsolated: boolean;

beforeAll(async () => {
  app = await startTestApp({ redisPrefix: uniqueName('analytics') });
  admin = (await signedInClient(app, 'admin')).client;
  isIsolated = app.deps.database.kind === 'pglite';
});
afterAll(async () => {
  await app.stop();
});

async function visitorStats() {
  const response = await admin.get('/api/visitor-stats');
  expect(response.status).toBe(200);
  return VisitorStatsResponse.parse(response.body);
}

function today(stats: VisitorStatsResponse): DailyStat {
  const day = stats.dailyStats.at(-1);
  if (day?.date !== dayOf(Date.now())) {
    throw new Error(`last day is ${day?.date}, not today`);
  }
  return day;
}

/** Exact on an isolated database; on a shared one other test files may add to the same day. */
function expectIncrease(after: number, before: number, by: number) {
  if (isIsolated) {
    expect(after - before).toBe(by);
  } else {
    expect(after - before).toBeGreaterThanOrEqual(by);
  }
}

describe('visitor stats', () => {
  it('answers 30 days ending today with the summary', async () => {
    const stats = await visitorStats();
    expect(stats.dailyStats).toHaveLength(30);
    const dates = stats.dailyStats.map((day) => day.date);
    expect(dates).toEqual([...dates].sort());
    expect(Date.parse(`${dates[29]}T00:00:00Z`) - Date.parse(`${dates[0]}T00:00:00Z`)).toBe(
      29 * 86_400_000,
    );
    for (const day of stats.dailyStats) {
      expect(day.daily_total).toBe(day.registered_visitors + day.anonymous_visitors);
    }
    expect(stats.summary.totalUsers).toBe(today(stats).total_users);
    expect(stats.summary.peakConcurrent).toBe(
      Math.max(...stats.dailyStats.map((day) => day.peak_concurrent)),
    );
  });

  it('takes the averages over the days it says, the newest days of the breakdown', async () => {
    const visitor = await signedInClient(app);
    await visitor.client.post('/api/auth/heartbeat', { currentPage: '/games' });
    await app.deps.analytics.flush();
    const stats = await visitorStats();
    const days = stats.summary.averageDays ?? -1;
    expect(days).toBeGreaterThanOrEqual(1);
    expect(days).toBeLessThanOrEqual(30);
    const counted = stats.dailyStats.slice(-days);
    const mean = (pick: (day: DailyStat) => number) =>
      Math.round((counted.reduce((sum, day) => sum + pick(day), 0) / days) * 100) / 100;
    expect(stats.summary.averageTotal).toBe(mean((day) => day.daily_total));
    expect(stats.summary.averageAuthenticated).toBe(mean((day) => day.registered_visitors));
    expect(stats.summary.averageAnonymous).toBe(mean((day) => day.anonymous_visitors));
    if (isIsolated) {
      // this file's database began today: one day with data, not thirty
      expect(days).toBe(1);
    }
  });

  it('counts registrations as new and total users of today', async () => {
    const before = await visitorStats();
    await signedInClient(app);
    await signedInClient(app);
    await app.deps.analytics.flush();
    const after = await visitorStats();
    expectIncrease(today(after).new_users, today(before).new_users, 2);
    expectIncrease(today(after).total_users, today(before).total_users, 2);
    expectIncrease(after.summary.newUsers, before.summary.newUsers, 2);
    expect(after.summary.totalUsers).toBe(today(after).total_users);
    if (isIsolated) {
      expect(today(after).total_users).toBe(await app.deps.users.count());
    }
  });

  it('counts each visitor once a day, split registered and anonymous, and the peak', async () => {
    const before = await visitorStats();
    const users = [await signedInClient(app), await signedInClient(app)];
    const guestIds = [uniqueName('guest').padEnd(20, '0'), uniqueName('guest').padEnd(20, '0')];
    const guest = app.client();
    for (let round = 0; round < 3; round++) {
      for (const user of users) {
        expect(
          (await user.client.post('/api/auth/heartbeat', { currentPage: `/games` })).status,
        ).toBe(200);
      }
      for (const visitorId of guestIds) {
        expect(
          (await guest.post('/api/anonymous-heartbeat', { currentPage: '/', visitorId })).status,
        ).toBe(200);
      }
    }
    // the coalesced presence push notes the concurrent count; the flush writes it
    await vi.waitFor(
      async () => {
        await app.deps.presence.flush();
        await app.deps.analytics.flush();
        const after = await visitorStats();
        expectIncrease(today(after).registered_visitors, today(before).registered_visitors, 2);
        expectIncrease(today(after).anonymous_visitors, today(before).anonymous_visitors, 2);
        expect(today(after).peak_concurrent).toBeGreaterThanOrEqual(4);
      },
      { timeout: 3000, interval: 100 },
    );

    // more heartbeats from the same visitors change nothing
    const settled = await visitorStats();
    for (const user of users) {
      await user.client.post('/api/auth/heartbeat', { currentPage: '/Gallery' });
    }
    await guest.post('/api/anonymous-heartbeat', { currentPage: '/', visitorId: guestIds[0] });
    await app.deps.analytics.flush();
    if (isIsolated) {
      expect(today(await visitorStats())).toEqual(today(settled));
    }
  });

  it('is for admins only', async () => {
    expect((await app.client().get('/api/visitor-stats')).status).toBe(401);
    const { client } = await signedInClient(app);
    expect((await client.get('/api/visitor-stats')).status).toBe(403);
  });
});

describe('game clicks', () => {
  it('counts clicks per game, split by signed-in and anonymous', async () => {
    const before = (await visitorStats()).gameStats;
    const guest = app.client();
    const { client: user } = await signedInClient(app, 'subscriber');
    expect((await guest.post('/api/track-game-click', { gameId: 'MainQuest2' })).status).toBe(200);
    expect((await guest.post('/api/track-game-click', { gameId: 'MainQuest2' })).status).toBe(200);
    expect((await user.post('/api/track-game-click', { gameId: 'MainQuest2' })).status).toBe(200);
    expect((await user.post('/api/track-game-click', { gameId: 'Pong' })).status).toBe(200);

    const after = (await visitorStats()).gameStats;
    const zero = { totalClicks: 0, authenticatedClicks: 0, anonymousClicks: 0 };
    const delta = (gameId: string) => {
      const a = after[gameId] ?? zero;
      const b = before[gameId] ?? zero;
      return {
        totalClicks: a.totalClicks - b.totalClicks,
        authenticatedClicks: a.authenticatedClicks - b.authenticatedClicks,
        anonymousClicks: a.anonymousClicks - b.anonymousClicks,
      };
    };
    expect(delta('MainQuest2')).toEqual({
      totalClicks: 3,
      authenticatedClicks: 1,
      anonymousClicks: 2,
    });
    expect(delta('Pong')).toEqual({ totalClicks: 1, authenticatedClicks: 1, anonymousClicks: 0 });
  });

  it('refuses unknown games', async () => {
    const unknown = await app
      .client()
      .post<{ error: { message: string } }>('/api/track-game-click', { gameId: 'NoSuchGame' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('gameId: Unknown game');
    expect((await app.client().post('/api/track-game-click', {})).status).toBe(400);
    expect((await visitorStats()).gameStats.NoSuchGame).toBeUndefined();
  });
});

describe('game status', () => {
  it('answers one boolean per multiplayer server type', async () => {
    const response = await app.client().get('/api/game-status');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ wolfscape: true, rocketGame: true });
  });
});
