import './site-config-element';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

import { resetAuthStore } from '../features/auth/auth-store';

// Lazy page modules are transformed on first use, which is slow on a busy machine: CI runs these
// tests beside the server's, lint and typecheck, and the admin pages' chunk once took 5.4 s there.
// A passing wait returns as soon as it holds; only a failing one waits this long (testTimeout 20 s).
// Both are multiplied by the slow-machine factor (vite.config.ts passes it in TEST_TIME_FACTOR).
configure({ asyncUtilTimeout: 15_000 * (Number(process.env.TEST_TIME_FACTOR) || 1) });

afterEach(() => {
  cleanup();
  resetAuthStore();
  window.localStorage.clear();
});
