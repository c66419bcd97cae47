import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

import { resetAuthStore } from '../features/auth/auth-store';

// Lazy page modules are transformed on first use, which is slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  resetAuthStore();
  window.localStorage.clear();
});
