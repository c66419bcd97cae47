import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GAME_IDS } from '@portfolio/types';

import { type Database, openDatabase } from '../../../db/client.js';
import { createDomainEventBus } from '../../../lib/events.js';
import { createAdminNotifier } from '../../../lib/admin-notifier.js';
import { DEMO_USER_COUNT, seedDemoData } from './demo-data.js';
import { createAnalyticsRepo } from './repo.js';
import { createAnalyticsService } from './service.js';

// always a private PGlite: the demo data must not land in a shared test database
let database: Database;
beforeAll(async () => {
  const template = process.env.PGLITE_TEMPLATE;
  database = await openDatabase({
    dataDir: 'memory://',
    ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
  });
});
afterAll(async () => {
  await database.close();
});

describe('seed:demo', () => {
  it('fills 30 days the dashboard can show, consistent with the users, and reruns change nothing', async () => {
    const first = await seedDemoData(database.db, { passwordHash: 'not-a-real-hash' });
    expect(first.usersCreated).toBe(DEMO_USER_COUNT);

    const analytics = createAnalyticsService({
      repo: createAnalyticsRepo(database.db),
      events: createDomainEventBus(),
      notifier: createAdminNotifier(),
    });
    const stats = await analytics.getVisitorStats();
    expect(stats.summary.totalUsers).toBe(DEMO_USER_COUNT);
    expect(
      stats.dailyStats.slice(0, 29).every((day) => day.daily_total > 0 && day.peak_concurrent > 0),
    ).toBe(true);
    expect(stats.summary.averageTotal).toBeGreaterThan(50);
    expect(stats.summary.peakConcurrent).toBeGreaterThan(5);
    // new users per day add up to the running total
    for (const [index, day] of stats.dailyStats.entries()) {
      const previous = stats.dailyStats[index - 1];
      if (previous) {
        expect(day.total_users - previous.total_users).toBe(day.new_users);
      }
    }
    expect(Object.keys(stats.gameStats).sort()).toEqual([...GAME_IDS].sort());

    const second = await seedDemoData(database.db, { passwordHash: 'not-a-real-hash' });
    expect(second.usersCreated).toBe(0);
    expect(await analytics.getVisitorStats()).toEqual(stats);
  });
});
