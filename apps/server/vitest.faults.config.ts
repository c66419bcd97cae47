import { defineConfig } from 'vitest/config';

/**
 * The fault tests (src/test/faults): they start their own Redis, PostgreSQL and server processes
 * on free loopback ports, stop and restart them. Run one file at a time: `npm run test:faults`.
 */
export default defineConfig({
  test: {
    include: ['src/test/faults/**/*.fault.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
