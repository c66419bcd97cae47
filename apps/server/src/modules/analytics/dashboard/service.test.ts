import { describe, expect, it } from 'vitest';

import { createDomainEventBus } from '../../../lib/events.js';
import { createAdminNotifier } from '../../../lib/admin-notifier.js';
import type { AnalyticsRepo } from './repo.js';
import { createAnalyticsService } from './service.js';

type Row = Awaited<ReturnType<AnalyticsRepo['listDays']>>[number];

const row = (day: string, values: Partial<Row>): Row => ({
  day,
  newUsers: 0,
  totalUsers: 0,
  peakConcurrent: 0,
  registeredVisitors: 0,
  anonymousVisitors: 0,
  ...values,
});

/** A repo over fixed rollup rows, answering like the SQL one. */
function fakeRepo(rows: Row[], userCount = 0): AnalyticsRepo {
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    listDays: (from, to) => {
      const inRange = rows.filter((r) => r.day >= from && r.day <= to);
      const before = rows.filter((r) => r.day < from).at(-1);
      return Promise.resolve([...(before ? [before] : []), ...inRange]);
    },
    sumGameClicks: () =>
      Promise.resolve([{ gameId: 'Pong', authenticatedClicks: 2, anonymousClicks: 3 }]),
    countUsers: () => Promise.resolve(userCount),
    addVisitors: unused,
    raisePeak: unused,
    forgetVisitorsBefore: unused,
    recordUserCountChange: unused,
    addGameClick: unused,
  };
}

const serviceAt = (isoTime: string, repo: AnalyticsRepo) =>
  createAnalyticsService({
    repo,
    events: createDomainEventBus(),
    notifier: createAdminNotifier(),
    now: () => Date.parse(isoTime),
  });

describe('visitor stats from rollups', () => {
  const rows = [
    row('2026-01-20', { newUsers: 5, totalUsers: 40 }),
    row('2026-02-20', {
      newUsers: 2,
      totalUsers: 42,
      registeredVisitors: 3,
      anonymousVisitors: 5,
      peakConcurrent: 4,
    }),
    row('2026-03-01', {
      newUsers: 1,
      totalUsers: 43,
      registeredVisitors: 1,
      anonymousVisitors: 1,
      peakConcurrent: 7,
    }),
    row('2026-03-05', { totalUsers: 43, registeredVisitors: 2 }),
  ];

  it('fills missing days, carrying total users forward from before the window', async () => {
    const stats = await serviceAt('2026-03-05T12:00:00Z', fakeRepo(rows)).getVisitorStats();
    expect(stats.dailyStats).toHaveLength(30);
    expect(stats.dailyStats[0]).toEqual({
      date: '2026-02-04',
      new_users: 0,
      total_users: 40,
      peak_concurrent: 0,
      registered_visitors: 0,
      anonymous_visitors: 0,
      daily_total: 0,
    });
    const byDate = new Map(stats.dailyStats.map((day) => [day.date, day]));
    expect(byDate.get('2026-02-20')).toMatchObject({
      new_users: 2,
      total_users: 42,
      daily_total: 8,
      peak_concurrent: 4,
    });
    expect(byDate.get('2026-02-21')).toMatchObject({
      new_users: 0,
      total_users: 42,
      daily_total: 0,
    });
    expect(stats.dailyStats.at(-1)).toMatchObject({
      date: '2026-03-05',
      total_users: 43,
      daily_total: 2,
    });
  });

  it('averages from the first day with data, counts new users of this month, takes the peak', async () => {
    const stats = await serviceAt('2026-03-05T23:59:59Z', fakeRepo(rows)).getVisitorStats();
    // 2026-02-20 … 2026-03-05 is 14 days: 12 visitors (6 registered, 6 anonymous)
    expect(stats.summary).toEqual({
      averageTotal: 0.86,
      averageAuthenticated: 0.43,
      averageAnonymous: 0.43,
      averageDays: 14,
      newUsers: 1,
      totalUsers: 43,
      peakConcurrent: 7,
    });
    expect(stats.gameStats).toEqual({
      Pong: { totalClicks: 5, authenticatedClicks: 2, anonymousClicks: 3 },
    });
  });

  it('counts new users from the 1st of the month even when it is older than the window', async () => {
    const monthRows = [
      row('2026-03-01', { newUsers: 3, totalUsers: 3 }),
      row('2026-03-31', { newUsers: 1, totalUsers: 4 }),
    ];
    const stats = await serviceAt('2026-03-31T08:00:00Z', fakeRepo(monthRows)).getVisitorStats();
    expect(stats.dailyStats[0]).toMatchObject({ date: '2026-03-02', total_users: 3, new_users: 0 });
    expect(stats.summary.newUsers).toBe(4);
  });

  it('answers zeros and the users table count before any rollup exists', async () => {
    const stats = await serviceAt('2026-03-05T12:00:00Z', fakeRepo([], 12)).getVisitorStats();
    expect(stats.summary).toEqual({
      averageTotal: 0,
      averageAuthenticated: 0,
      averageAnonymous: 0,
      averageDays: 0,
      newUsers: 0,
      totalUsers: 12,
      peakConcurrent: 0,
    });
    expect(stats.dailyStats.every((day) => day.total_users === 0 && day.daily_total === 0)).toBe(
      true,
    );
  });
});
