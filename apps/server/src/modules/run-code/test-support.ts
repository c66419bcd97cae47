import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ApiError, RunCodeBackend, RunCodeRequest, RunCodeResponse } from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { RELAXED_LIMIT } from '../../test/relaxed-limits.js';
import { slowMachineFactor } from '../../test/slow-machine.js';
import { RUN_CODE_LIMITS } from './limits.js';
import { type CodeRunner, type CodeRunnerOptions, createCodeRunner } from './runner.js';
import { findTools } from './sandbox.js';

/**
 * Why the native sandbox cannot run in this test process, or undefined where it can (Linux,
 * root, bubblewrap and g++). As an ordinary user it never can: the native-only tests skip with
 * this reason, printed once per file, and the general cases run on the WebAssembly backend.
 */
export const NATIVE_SKIP_REASON: string | undefined = await (async () => {
  if (process.platform !== 'linux') {
    return `the native sandbox needs Linux (this is ${process.platform})`;
  }
  if (process.getuid?.() !== 0) {
    return 'the native sandbox needs root (each run drops to a uid of its own)';
  }
  const tools = await findTools();
  return 'missing' in tools ? `the native sandbox needs ${tools.missing.join(', ')}` : undefined;
})();
export const HAS_NATIVE = NATIVE_SKIP_REASON === undefined;
if (!HAS_NATIVE) {
  console.warn(
    `[run-code tests] native-backend tests skipped: ${NATIVE_SKIP_REASON}; the general cases run on the WebAssembly backend`,
  );
}

/** The one backend a test that needs any working runner uses. */
export const TEST_BACKEND: RunCodeBackend = HAS_NATIVE ? 'native' : 'wasm';
/**
 * The backends the general run-code tests run on: both where native can run, else wasm; only
 * TEST_BACKEND with TEST_RUN_CODE_ONE_BACKEND=1 (the suite's second run in CI, on PostgreSQL and
 * Redis: what differs there is the route's rate limit, the same for either backend).
 */
export const TEST_BACKENDS: readonly RunCodeBackend[] =
  process.env.TEST_RUN_CODE_ONE_BACKEND === '1'
    ? [TEST_BACKEND]
    : HAS_NATIVE
      ? ['native', 'wasm']
      : ['wasm'];

/**
 * Kept between runs: the helper and the <iostream> header are built once per machine and user
 * (a folder another user made, root's in CI, is not writable by this one).
 */
export const TEST_DATA_DIR = path.join(
  tmpdir(),
  `portfolio-run-code-test-${process.getuid?.() ?? 'user'}`,
);
export const TEST_RUN_DIR = path.join(TEST_DATA_DIR, 'run-code');

export const HELLO = `#include <iostream>

int main() {
  std::cout << "Hello, World!" << std::endl;
  return 0;
}
`;

/** A comment that makes each source unique, so the result cache never answers for it. */
export const fresh = (source: string) => `${source}\n// ${randomBytes(8).toString('hex')}\n`;

/** A client address of its own (the app trusts X-Forwarded-For from loopback in these tests). */
export const newAddress = () => ({ 'x-forwarded-for': `10.${randomBytes(3).join('.')}` });

/**
 * The real app with a working runner (checked) on the given backend, its data folder in
 * TEST_DATA_DIR. Every request may come from its own address (see newAddress).
 */
export async function startRunnerApp(
  runnerOptions: Partial<CodeRunnerOptions> & { backend?: RunCodeBackend } = {},
): Promise<{ app: TestApp; runner: CodeRunner }> {
  mkdirSync(TEST_DATA_DIR, { recursive: true });
  const runner = createCodeRunner({
    dir: TEST_RUN_DIR,
    prebuiltIncludeSets: [['iostream']],
    backend: TEST_BACKEND,
    // tests send many runs from one address: the fairness tests set their own budgets
    slotSecondsPerMinute: 600,
    compileSecondsPerMinute: 600,
    // a compile starved on a busy machine is not what these tests test (the product's 30 s)
    compileWallSeconds: Math.min(
      300,
      Math.round(RUN_CODE_LIMITS.compileWallSeconds * slowMachineFactor()),
    ),
    ...runnerOptions,
  });
  const app = await startTestApp(
    { dataDir: TEST_DATA_DIR, trustProxy: 'loopback' },
    { codeRunner: runner, runCodeRateLimit: RELAXED_LIMIT },
  );
  // native's precompiled header is part of what is tested; WebAssembly's prebuild only starts
  // the pool's other compilers (each warms up before its first compile), which the tests' own
  // runs do when they need them
  const availability = await runner.warmUp({
    prebuild: (runnerOptions.backend ?? TEST_BACKEND) === 'native',
  });
  if (!availability.ok) {
    await app.stop();
    throw new Error(`the runner is not available: ${availability.reason}`);
  }
  await runner.headersSettled();
  return { app, runner };
}

/** Posts a run from a new address of its own (so per-address limits never mix tests). */
export function postCode(
  app: TestApp,
  code: string,
  extra: Omit<RunCodeRequest, 'code'> = {},
  headers: Record<string, string> = newAddress(),
) {
  return app.client().post<RunCodeResponse & ApiError>('/run-code', { code, ...extra }, headers);
}
