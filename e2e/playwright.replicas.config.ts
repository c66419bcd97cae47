import { defineConfig, devices } from '@playwright/test';

import { scaled } from '../apps/server/src/test/slow-machine';
import { CHROMIUM_FLAGS } from './fixtures/constants';

/**
 * The two-replica test (replicas/): it starts nginx, PostgreSQL's database, two built servers,
 * Redis's keys and an S3 test server with a bucket of its own in the spec, so there is no
 * webServer here. `npm run test:replicas` (after `npm run build`); it skips, saying why, where
 * nginx, PostgreSQL or an S3 test server is missing.
 */
export default defineConfig({
  testDir: './replicas',
  outputDir: './test-results/replicas',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // the limits on an idle machine, times the load per core at start or TEST_TIME_FACTOR
  timeout: scaled(60_000),
  // the whole run is bounded: start-up (an S3 test server too), eight tests, stopping everything
  globalTimeout: scaled(6 * 60_000),
  expect: { timeout: scaled(10_000) },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
