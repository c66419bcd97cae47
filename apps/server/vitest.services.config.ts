import { readFileSync } from 'node:fs';

import { defineConfig, mergeConfig } from 'vitest/config';

import base from './vitest.config.js';

/**
 * The suite's second run in CI, on PostgreSQL and Redis (`npm run test:services`, with
 * DATABASE_URL and REDIS_URL set): every file whose code paths can differ there. The files below
 * run the same code on either: they open no database and no Redis, start no app, read no
 * environment (PGlite's run, `npm test`, runs them all), or (the C++ runner's) start the app only
 * to reach the runner, which keeps its queue, cache and sandboxes in the process; the runner's
 * route on Redis (its rate limit, 429) is run-code.test.ts's, which runs here.
 */
export const SAME_ON_EVERY_DATABASE = [
  'src/layers.test.ts',
  'src/lib/client-address.test.ts',
  'src/lib/known-bots.test.ts',
  'src/lib/memoize.test.ts',
  'src/lib/proxy-trust.test.ts',
  'src/lib/storage/local-storage.test.ts',
  'src/lib/storage/s3-storage.test.ts',
  'src/modules/analytics/dashboard/service.test.ts',
  'src/modules/analytics/site/segments.test.ts',
  'src/modules/auth/device-info.test.ts',
  'src/modules/backup/hostile-archives.test.ts',
  'src/modules/content/seed-content.test.ts',
  'src/modules/devlog/markdown.test.ts',
  'src/modules/game-host/origin.test.ts',
  'src/modules/game-status/monitor.test.ts',
  'src/modules/multiplayer/game-folders.test.ts',
  'src/modules/presence/heartbeat-body.test.ts',
  'src/modules/presence/memory-store.test.ts',
  'src/modules/run-code/native-setup.test.ts',
  'src/modules/run-code/pch.test.ts',
  'src/modules/subscription/subscription-state.test.ts',
  'src/test/slow-machine.test.ts',
  // the runner's own tests: the app is only their way in
  'src/modules/run-code/fairness.test.ts',
  'src/modules/run-code/hostile.test.ts',
  'src/modules/run-code/wasm-limits.test.ts',
];

// a file on the list that starts reaching a database, Redis or the environment runs here again:
// the list fails loudly instead of dropping it silently (and a renamed file is named)
const REACHES_SERVICES =
  /DATABASE_URL|REDIS_URL|test\/database|db\/client|ioredis|from 'pg'|loadConfig|process\.env/;
const RUNNER_ONLY = /^src\/modules\/run-code\//;
for (const file of SAME_ON_EVERY_DATABASE) {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const startsApp = /startTestApp|startIsolatedTestApp|test\/harness/.test(source);
  if (REACHES_SERVICES.test(source) || (startsApp && !RUNNER_ONLY.test(file))) {
    throw new Error(
      `${file} reaches a database, Redis, the environment or the app: take it off SAME_ON_EVERY_DATABASE (vitest.services.config.ts)`,
    );
  }
}

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['**/node_modules/**', ...SAME_ON_EVERY_DATABASE],
      // run-code.test.ts's cases on one backend (native where it can run): the route, its rate
      // limit on Redis and its answers are the same on either; PGlite's run covers both backends
      env: { TEST_RUN_CODE_ONE_BACKEND: '1' },
    },
  }),
);
