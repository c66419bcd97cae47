import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AnalyticsBreakdown, AnalyticsOverview } from '@portfolio/types/analytics';

import { startTestApp, type TestApp, type TestClient, uniqueName } from '../../../test/harness.js';
import { signedInClient } from '../../../test/factories.js';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database.js';
import type { Day } from '../days.js';
import type { EventRow } from './events.js';
import { rowsOf } from '../../../db/rows.js';
import { createEventsRepo } from './events-repo.js';
import { MAX_VALUES_PER_DAY, OTHER_VALUE } from './rollup.js';
import { captureLogs } from '../../../lib/logger.js';

/**
 * Rollups under a flood: one account's page views are limited as a guest address's,
 * a day of 40,000 distinct UTM values rolls up (it overflowed the stack, and days roll up in
 * order, so no later day was rolled up either), and a day whose rollup fails is logged, shown to
 * the admin and retried while the days after it are rolled up.
 */
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const clock = Date.parse('2026-03-10T12:00:00Z');
let app: TestApp;
let admin: TestClient;
let scratch: ScratchDatabase | undefined;

beforeAll(async () => {
  // exact counts: a database of its own on PostgreSQL too
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'test_rollup_days')
    : undefined;
  app = await startTestApp(
    {
      trustProxy: 'loopback',
      redisPrefix: uniqueName('rollup-days'),
      ...(scratch ? { databaseUrl: scratch.url } : {}),
    },
    { now: () => clock, eventFlushIntervalMs: 3_600_000, analyticsFlushIntervalMs: 3_600_000 },
  );
  admin = (await signedInClient(app, 'admin')).client;
});
afterAll(async () => {
  await app?.stop();
  await scratch?.drop();
});

/** A page view of `day` from `visitor`, `overrides` on top. */
function pageView(day: Day, visitor: number, overrides: Partial<EventRow> = {}): EventRow {
  return {
    day,
    at: `${day}T10:00:00.000Z`,
    kind: 1,
    visitor: String(visitor),
    path: '/',
    entry_path: '/',
    is_entry: true,
    referrer: '',
    utm_source: '',
    utm_medium: '',
    utm_campaign: '',
    country: 'DE',
    device: 'desktop',
    browser: 'Chrome',
    os: 'Windows',
    seconds: 0,
    is_exit: false,
    is_bounce: false,
    game: '',
    ...overrides,
  };
}

async function rolledUpDays(): Promise<Set<Day>> {
  const rows = await rowsOf<{ day: Day }>(
    app.deps.database.db,
    sql`select day::text as day from analytics_daily
        where filter = '' and dimension = 'total' and value = ''`,
  );
  return new Set(rows.map((row) => row.day));
}

async function overview(from: Day, to: Day) {
  const response = await admin.get(`/api/analytics/overview?period=custom&from=${from}&to=${to}`);
  expect(response.status).toBe(200);
  return AnalyticsOverview.parse(response.body);
}

describe('page views from one account', () => {
  it('are limited as a guest address’s are', async () => {
    const { client } = await signedInClient(app);
    const statuses: number[] = [];
    for (let index = 0; index < 130; index++) {
      const response = await client.post(
        '/api/auth/heartbeat',
        { currentPage: '/', view: { landing: '/', utm_campaign: `flood-${index}` } },
        { 'x-forwarded-for': `198.51.100.${index % 250}`, 'user-agent': CHROME },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(120).every((status) => status === 429)).toBe(true);
    // the anonymous path is no way around it for a signed-in browser
    const guestPath = await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/', view: { landing: '/', utm_campaign: 'flood-guest-path' } },
      { 'x-forwarded-for': '198.51.100.251', 'user-agent': CHROME },
    );
    expect(guestPath.status).toBe(429);
    // nor are its leave beacons unlimited (240 a minute per address, and per user)
    const beaconStatuses: number[] = [];
    for (let index = 0; index < 250; index++) {
      const response = await client.post(
        '/api/analytics/beacon',
        { type: 'leave', path: '/', seconds: 1, utm_campaign: `flood-leave-${index}` },
        { 'x-forwarded-for': `203.0.113.${index % 250}`, 'user-agent': CHROME },
      );
      beaconStatuses.push(response.status);
    }
    expect(beaconStatuses.slice(0, 240).every((status) => status === 204)).toBe(true);
    expect(beaconStatuses.slice(240).every((status) => status === 429)).toBe(true);
    // another account is not held back
    const other = await signedInClient(app);
    const response = await other.client.post('/api/auth/heartbeat', { currentPage: '/' });
    expect(response.status).toBe(200);
    // a refused heartbeat's page view counts nowhere
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.deps.collector.flush();
    const [counted] = await rowsOf<{ views: number }>(
      app.deps.database.db,
      sql`select count(*)::int as views from analytics_events
          where kind = 1 and utm_campaign like 'flood-%'`,
    );
    expect(counted?.views).toBe(120);
  });
});

describe('rollups', () => {
  it(
    'roll up a day of 40,000 page views with distinct UTM values, and the day after it',
    { timeout: 120_000 },
    async () => {
      const repo = createEventsRepo(app.deps.database.db);
      const flood = Array.from({ length: 40_000 }, (_, index) =>
        pageView('2026-03-08', 1, {
          referrer: `r${index}.example.com`,
          utm_source: `s${index}`,
          utm_medium: `m${index}`,
          utm_campaign: `c${index}`,
        }),
      );
      await repo.insert(flood);
      await repo.insert([pageView('2026-03-09', 2), pageView('2026-03-09', 3)]);
      await app.deps.siteAnalytics.rollUp();
      const rolled = await rolledUpDays();
      expect(rolled.has('2026-03-08')).toBe(true);
      expect(rolled.has('2026-03-09')).toBe(true);
      const answer = await overview('2026-03-08', '2026-03-09');
      expect(answer.totals.pageviews).toBe(40_002);
      expect(answer.rollupFailures ?? []).toEqual([]);
      // the day's long tail is summed as one value: its rows stay far from millions
      const [rows] = await rowsOf<{ count: number }>(
        app.deps.database.db,
        sql`select count(*)::int as count from analytics_daily where day = '2026-03-08'`,
      );
      expect(rows?.count).toBeLessThan(200_000);
      const campaigns = await admin.get(
        '/api/analytics/breakdown/utm_campaign?period=custom&from=2026-03-08&to=2026-03-08&limit=1000',
      );
      expect(campaigns.status).toBe(200);
      const breakdown = AnalyticsBreakdown.parse(campaigns.body).rows;
      expect(breakdown.find((row) => row.value === OTHER_VALUE)?.pageviews).toBe(
        40_000 - MAX_VALUES_PER_DAY,
      );
    },
  );

  it('roll up the days after one that fails, show the failure to the admin and retry it', async () => {
    const { db } = app.deps.database;
    const repo = createEventsRepo(db);
    await repo.insert([
      pageView('2026-03-05', 4),
      pageView('2026-03-05', 5),
      pageView('2026-03-05', 5, { path: '/games', is_entry: false }),
    ]);
    await repo.insert([pageView('2026-03-06', 6), pageView('2026-03-06', 7)]);
    // the database refuses the 5th's rollup rows, as a full disk or a bug would
    await db.execute(
      sql.raw(`create function refuse_rollup() returns trigger language plpgsql as $$
        begin
          if new.day = date '2026-03-05' then raise exception 'no space left for this day'; end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_rollup before insert on analytics_daily
        for each row execute function refuse_rollup()`),
    );
    const logged = captureLogs();
    try {
      await app.deps.siteAnalytics.rollUp();
      expect(
        logged.linesAtLeast('error').some((line) => String(line.msg).includes('2026-03-05')),
      ).toBe(true);
    } finally {
      logged.restore();
    }
    let rolled = await rolledUpDays();
    expect(rolled.has('2026-03-05')).toBe(false);
    expect(rolled.has('2026-03-06')).toBe(true);
    // the figures are right all the same (the failed day on is read from raw events), and the
    // admin is told which day failed and when it is tried again
    const failing = await overview('2026-03-05', '2026-03-06');
    expect(failing.totals.pageviews).toBe(5);
    expect(failing.rollupFailures).toHaveLength(1);
    const [failure] = failing.rollupFailures ?? [];
    expect(failure).toMatchObject({ day: '2026-03-05', attempts: 1 });
    expect(failure?.message).toMatch(/no space left for this day/);
    expect(Date.parse(failure?.retryAt ?? '') - Date.parse(failure?.failedAt ?? '')).toBe(
      10 * 60_000,
    );
    // the next run tries it again
    await db.execute(sql.raw('drop trigger refuse_rollup on analytics_daily'));
    await db.execute(sql.raw('drop function refuse_rollup()'));
    await app.deps.siteAnalytics.rollUp();
    rolled = await rolledUpDays();
    expect(rolled.has('2026-03-05')).toBe(true);
    const recovered = await overview('2026-03-05', '2026-03-06');
    expect(recovered.totals.pageviews).toBe(5);
    expect(recovered.rollupFailures ?? []).toEqual([]);
  });
});
