import type { DailyStat, GameClickStats, VisitorStatsResponse } from '@portfolio/types';

import { addDays, dayOf } from '../days.js';
import type { AnalyticsRepo } from './repo.js';

/** The dashboard's window (spec section 9): today and the 29 days before it, in UTC. */
export const ANALYTICS_WINDOW_DAYS = 30;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** GET /api/visitor-stats: the window's days, their averages and the game clicks. */
export async function getVisitorStats(
  repo: AnalyticsRepo,
  now: () => number,
): Promise<VisitorStatsResponse> {
  const today = dayOf(now());
  const windowStart = addDays(today, -(ANALYTICS_WINDOW_DAYS - 1));
  const monthStart = `${today.slice(0, 7)}-01`;
  const [rows, clicks] = await Promise.all([
    repo.listDays(monthStart < windowStart ? monthStart : windowStart, today),
    repo.sumGameClicks(),
  ]);

  const byDay = new Map(rows.map((row) => [row.day, row]));
  const before = rows.filter((row) => row.day < windowStart).at(-1);
  let totalUsers = before?.totalUsers ?? 0;
  let newUsersThisMonth = 0;
  for (const row of rows) {
    if (row.day >= monthStart) {
      newUsersThisMonth += row.newUsers;
    }
  }
  const dailyStats: DailyStat[] = [];
  let firstDayWithData = -1;
  for (let index = 0; index < ANALYTICS_WINDOW_DAYS; index++) {
    const day = addDays(windowStart, index);
    const row = byDay.get(day);
    if (row) {
      totalUsers = row.totalUsers;
      if (firstDayWithData < 0) {
        firstDayWithData = index;
      }
    }
    const registered = row?.registeredVisitors ?? 0;
    const anonymous = row?.anonymousVisitors ?? 0;
    dailyStats.push({
      date: day,
      new_users: row?.newUsers ?? 0,
      total_users: totalUsers,
      peak_concurrent: row?.peakConcurrent ?? 0,
      registered_visitors: registered,
      anonymous_visitors: anonymous,
      daily_total: registered + anonymous,
    });
  }
  // days before the first rollup in the window (before launch) would drag averages to zero
  const counted = firstDayWithData < 0 ? [] : dailyStats.slice(firstDayWithData);
  const average = (pick: (stat: DailyStat) => number) =>
    counted.length === 0
      ? 0
      : round2(counted.reduce((sum, stat) => sum + pick(stat), 0) / counted.length);

  const gameStats: Record<string, GameClickStats> = {};
  for (const click of clicks) {
    gameStats[click.gameId] = {
      totalClicks: click.authenticatedClicks + click.anonymousClicks,
      authenticatedClicks: click.authenticatedClicks,
      anonymousClicks: click.anonymousClicks,
    };
  }
  return {
    summary: {
      averageTotal: average((stat) => stat.daily_total),
      averageAuthenticated: average((stat) => stat.registered_visitors),
      averageAnonymous: average((stat) => stat.anonymous_visitors),
      averageDays: counted.length,
      newUsers: newUsersThisMonth,
      totalUsers: rows.length > 0 ? totalUsers : await repo.countUsers(),
      peakConcurrent: Math.max(0, ...dailyStats.map((stat) => stat.peak_concurrent)),
    },
    dailyStats,
    gameStats,
  };
}
