import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * The layers (ARCHITECTURE.md, "Layers"), lowest first. Server: lib/ and db/ → access/ →
 * modules/<name> → the wiring (root files, realtime/, cli/). Web: lib/ and ui/ → features/<name>
 * → app/. Each layer imports only layers below it, so no two folders import each other.
 *
 * Between server modules, the run-time imports allowed are listed here, and the list is checked
 * for loops when ESLint loads it: a module that needs one which needs it back depends on an
 * interface (a type, injected by container.ts) or an event on the bus (lib/events.ts) instead.
 * Type imports through a module's index.ts are always allowed: they vanish at run time.
 */
const SERVER_MODULE_IMPORTS = {
  achievements: ['game-host'],
  auth: ['mail'],
  games: ['achievements'],
  presence: ['auth'],
  users: ['auth', 'mail', 'subscription'],
  web: ['devlog'],
};

/** Throws (so lint fails) when the allowed imports above would let modules import in a loop. */
function assertNoModuleLoop(label, graph) {
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') {
      return;
    }
    if (state.get(name) === 'open') {
      throw new Error(
        `eslint.config.js: ${label} import in a loop: ${[...trail, name].join(' → ')}`,
      );
    }
    state.set(name, 'open');
    for (const next of graph[name] ?? []) {
      visit(next, [...trail, name]);
    }
    state.set(name, 'done');
  };
  for (const name of Object.keys(graph)) {
    visit(name, []);
  }
}
/** The same for the web app's features (static imports; a lazy `import()` of a page is the router's). */
const WEB_FEATURE_IMPORTS = {
  admin: ['admin-games', 'analytics'],
  'admin-content': ['admin-media'],
  'admin-devlog': ['admin-games', 'admin-media', 'devlog'],
  'admin-games': ['games'],
  games: ['auth', 'devlog', 'presence'],
  presence: ['auth'],
  profile: ['auth', 'subscribe'],
  subscribe: ['auth'],
};

assertNoModuleLoop('server modules', SERVER_MODULE_IMPORTS);
assertNoModuleLoop('web features', WEB_FEATURE_IMPORTS);

const TEST_FILES = [
  '**/*.test.{ts,tsx}',
  '**/test-support.ts',
  '**/*.contract.ts',
  '**/test-zips.ts',
  '**/socket-test-client.ts',
  '**/test/**',
];
const SERVER = 'apps/server/src';
const WEB = 'apps/web/src';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const restrict = (files, patterns) => ({
  files,
  ignores: TEST_FILES,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

/** What a server module may import, for its files `depth` folders below modules/. */
function serverModuleBoundaries(name, depth) {
  const toSrc = escape('../'.repeat(depth + 1));
  const toModules = escape('../'.repeat(depth));
  const anyModule = `(${toModules}|${toSrc}modules/)`;
  const allowed = (SERVER_MODULE_IMPORTS[name] ?? []).map(escape);

  return restrict(
    [`${SERVER}/modules/${name}/${'*/'.repeat(depth - 1)}*.ts`],
    [
      {
        regex: `^${toSrc}(?!lib/|db/|access/|modules/|config\\.js$)`,
        message:
          'A module imports only lib/, db/, access/, config.ts and other modules through their index.ts: the wiring, realtime/ and cli/ sit above it.',
      },
      {
        regex: `^${anyModule}(?!${escape(name)}/)[^./][^/]*/(?!index\\.js$)`,
        message:
          'Another module is reached only through its index.ts (export what you need there).',
      },
      {
        regex: `^${anyModule}(?!(${[name, ...allowed].join('|')})/)[^./][^/]*/index\\.js$`,
        allowTypeImports: true,
        message:
          'This module may import that one only for types (SERVER_MODULE_IMPORTS in eslint.config.js lists the run-time imports between modules, without loops): depend on an interface or an event instead.',
      },
    ],
  );
}

const serverModules = readdirSync(new URL(`./${SERVER}/modules`, import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What a web feature may import (its files at any depth below features/<name>/). */
function webFeatureBoundaries(name) {
  const allowed = [name, ...(WEB_FEATURE_IMPORTS[name] ?? [])].map(escape).join('|');
  return restrict(
    [`${WEB}/features/${name}/*.{ts,tsx}`],
    [
      {
        regex: '^(\\.\\./)+app(/|$)',
        message:
          'A feature imports nothing of app/ (the shell); pieces features share belong in ui/.',
      },
      {
        // another feature's folder itself (its index.ts) and nothing inside, but its stylesheets
        regex: `^\\.\\./(?!${escape(name)}/)[^./][^/]*/(?!.*\\.css$)`,
        message:
          'Another feature is reached only through its index.ts (import the folder, export what you need there).',
      },
      {
        regex: `^\\.\\./(?!(${allowed})$)[^./][^/]*$`,
        message:
          'This feature may not import that one (WEB_FEATURE_IMPORTS in eslint.config.js lists the imports between features, without loops).',
      },
    ],
  );
}

const webFeatures = readdirSync(new URL(`./${WEB}/features`, import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerBoundaries = [
  restrict(
    [`${SERVER}/lib/**/*.ts`],
    [
      {
        regex: '^\\.\\./(?!db/)',
        message: 'lib/ imports no module, access/ or root file: it is the lowest layer.',
      },
      {
        regex: '^\\.\\./db/',
        allowTypeImports: true,
        message: 'lib/ may name db/ types only (db/ imports lib/ at run time).',
      },
    ],
  ),
  restrict(
    [`${SERVER}/db/**/*.ts`],
    [
      {
        regex: '^\\.\\./(?!lib/)',
        message: 'db/ imports only lib/: no module, access/ or root file.',
      },
    ],
  ),
  restrict(
    [`${SERVER}/access/**/*.ts`],
    [
      {
        regex: '^\\.\\./(?!lib/|db/|config\\.js$)',
        message:
          'access/ imports only lib/, db/ and config.ts: no module depends on it from below.',
      },
    ],
  ),
  ...serverModules.flatMap((name) => [1, 2, 3].map((depth) => serverModuleBoundaries(name, depth))),
  restrict(
    [`${WEB}/ui/**/*.{ts,tsx}`, `${WEB}/lib/**/*.{ts,tsx}`],
    [
      {
        regex: '^\\.\\./(features|app)/',
        message: 'ui/ and lib/ import no feature and nothing of app/ (they sit below both).',
      },
    ],
  ),
  ...webFeatures.map(webFeatureBoundaries),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      'data/**',
      '**/drizzle/**',
      '**/*.config.*',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // the server logs through lib/logger.ts (JSON lines, request ids, redaction); CLIs print
    // their results and expected errors for a person, tests and benchmarks their findings
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/cli/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/**/test-support.ts',
      'apps/server/src/test/**',
    ],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  ...layerBoundaries,
);
