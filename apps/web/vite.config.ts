import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// with its extension: Vite's native config loader (its future default) needs one
import { precompress } from './build/precompress.ts';
import { slowMachineFactor } from '../server/src/test/slow-machine.ts';

const apiTarget = 'http://127.0.0.1:3000';

/** Test files that replace modules or hold module state: each runs in a fresh environment. */
const ISOLATED_TESTS = [
  'src/app/routes.test.tsx',
  'src/features/admin*/**/*.test.tsx',
  'src/features/analytics/analytics-page.test.tsx',
  'src/features/subscribe/subscribe-page.test.tsx',
  'src/features/tutorials/*.test.tsx',
  'src/lib/page-data.test.tsx',
];

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/run-code': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
      // the game folders and SDK (/games itself is the web app's page)
      '^/games/.+': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // maps are written for debugging a build, but no bundle points at them; the server serves
    // them only with SERVE_SOURCE_MAPS (never by default in production) and the image has none
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: the server marks the files it lists (content-hashed) immutable
    manifest: true,
    // every browser the site supports has module preload; the polyfill would cost the entry
    modulePreload: { polyfill: false },
    // `npm run size` holds every chunk to its own budget (the C++ editor's Monaco is ~3 MB before
    // compression); Vite's one 500 kB warning fired on every build with nothing to act on
    chunkSizeWarningLimit: 4096,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // the limit on an idle machine, times the load per core at start or TEST_TIME_FACTOR
    testTimeout: 20_000 * slowMachineFactor(),
    // the same factor for the waits inside a test (src/test/setup.ts)
    env: { TEST_TIME_FACTOR: String(slowMachineFactor()) },
    restoreMocks: true,
    unstubGlobals: true,
    // Setting up jsdom was half the suite's CPU time (a new one per file). Files that replace
    // modules (vi.mock) or keep module state between renders get their own; the others share
    // one environment per worker, each file still cleaned after by src/test/setup.ts.
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED_TESTS },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', ...ISOLATED_TESTS],
          isolate: false,
        },
      },
    ],
  },
});
