import { defineConfig } from 'vitest/config';

import {
  BASE_HOOK_TIMEOUT_MS,
  BASE_TEST_TIMEOUT_MS,
  slowMachineFactor,
} from './src/test/slow-machine.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    // the limits on an idle machine; each file's follow the machine as it starts (the setup file)
    testTimeout: BASE_TEST_TIMEOUT_MS * slowMachineFactor(),
    hookTimeout: BASE_HOOK_TIMEOUT_MS * slowMachineFactor(),
    setupFiles: ['./src/test/slow-machine-setup.ts'],
    // PGlite instances are ~100 MB each: keep parallelism modest on 2 cores
    maxWorkers: 2,
  },
});
