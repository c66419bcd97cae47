import { defineConfig, devices } from '@playwright/test';

import { scaled } from '../apps/server/src/test/slow-machine';
import { CHROMIUM_FLAGS, E2E_ADMIN, makeDataDir } from './fixtures/constants';
import { e2eStripeEnv } from './fixtures/stripe';

const PORT = Number(process.env.E2E_PORT ?? 4300);
const dataDir = process.env.E2E_DATA_DIR ?? makeDataDir('e2e-data-');
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // the limits on an idle machine, times the load per core at start or TEST_TIME_FACTOR
  timeout: scaled(30_000),
  expect: { timeout: scaled(7_000) },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // the first admin comes from the CLI, as an owner would make it; then the built site starts
    command: `printf '%s\\n' "${E2E_ADMIN.password}" | npm run -s admin:create -- ${E2E_ADMIN.username} && node apps/server/dist/main.js`,
    // ready: migrated and answering (the port opens before the migrations run)
    url: `http://127.0.0.1:${PORT}/api/ready`,
    cwd: '..',
    reuseExistingServer: false,
    timeout: scaled(120_000),
    stdout: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      // every test registers its own accounts, all from 127.0.0.1
      REGISTER_LIMIT_PER_HOUR: '1000',
      // and signs in from it many times in 5 minutes
      LOGIN_LIMIT_PER_5_MINUTES: '1000',
      // and runs all their C++ from it: the fair-use budget is for many people, not one suite
      RUN_CODE_SLOT_SECONDS_PER_MINUTE: '600',
      RUN_CODE_COMPILE_SECONDS_PER_MINUTE: '600',
      // a compile starved by a busy machine is not what the browser tests test
      RUN_CODE_COMPILE_WALL_SECONDS: String(Math.min(300, Math.round(scaled(30_000) / 1000))),
      // the media refusal test sends a file just over this (default 20 MB)
      MEDIA_MAX_IMAGE_BYTES: String(3 * 1024 * 1024),
      // the footer's profile links (delivery.spec.ts checks they reach the page)
      GITHUB_PROFILE_URL: 'https://github.com/e2e-owner',
      LINKEDIN_PROFILE_URL: 'https://www.linkedin.com/in/e2e-owner',
      // a fake Stripe API the tests start (fixtures/stripe.ts)
      ...e2eStripeEnv(),
    },
  },
});
