import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AnalyticsOverview } from '@portfolio/types/analytics';

import { startTestApp, type TestApp, uniqueName } from '../../../test/harness.js';
import { signedInClient } from '../../../test/factories.js';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database.js';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Two server processes on one PostgreSQL (and Redis, when set) count one visitor once: both
 * read the day's salt from the database, so the same browser has the same hash on either.
 */
describe.skipIf(!process.env.DATABASE_URL)('site analytics on two processes', () => {
  let scratch: ScratchDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'test_analytics_two');
    const redisPrefix = uniqueName('analytics-two');
    first = await startTestApp({ databaseUrl: scratch.url, trustProxy: 'loopback', redisPrefix });
    second = await startTestApp({ databaseUrl: scratch.url, trustProxy: 'loopback', redisPrefix });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await scratch?.drop();
  });

  it('counts the same browser on both processes as one visitor', async () => {
    const headers = { 'x-forwarded-for': '81.2.69.160', 'user-agent': CHROME };
    for (const [app, page] of [
      [first, '/'],
      [second, '/games'],
      [first, '/Gallery'],
    ] as const) {
      const response = await app
        .client()
        .post(
          '/api/anonymous-heartbeat',
          { currentPage: page, view: { landing: '/', entry: page === '/' } },
          headers,
        );
      expect(response.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([first.deps.collector.flush(), second.deps.collector.flush()]);
    const admin = (await signedInClient(second, 'admin')).client;
    const response = await admin.get('/api/analytics/overview?period=today');
    const { totals } = AnalyticsOverview.parse(response.body);
    expect(totals).toMatchObject({ pageviews: 3, visitors: 1, visits: 1 });
  });
});
