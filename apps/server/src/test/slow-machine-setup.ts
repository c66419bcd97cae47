import { vi } from 'vitest';

import { BASE_HOOK_TIMEOUT_MS, BASE_TEST_TIMEOUT_MS, scaled } from './slow-machine.js';

// each test file's default limits follow the machine as the file starts (see slow-machine.ts)
vi.setConfig({
  testTimeout: scaled(BASE_TEST_TIMEOUT_MS),
  hookTimeout: scaled(BASE_HOOK_TIMEOUT_MS),
});
