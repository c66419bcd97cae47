import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ApiError, RunCodeResponse } from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { RELAXED_LIMIT } from '../../test/relaxed-limits.js';
import { type CodeRunner, createCodeRunner } from './runner.js';

/** Kept between runs: the helper and the <iostream> header are built once per machine. */
export const TEST_DATA_DIR = path.join(tmpdir(), 'portfolio-run-code-test');
export const TEST_RUN_DIR = path.join(TEST_DATA_DIR, 'run-code');

export const HELLO = `#include <iostream>

int main() {
  std::cout << "Hello, World!" << std::endl;
  return 0;
}
`;

/** A comment that makes each source unique, so the result cache never answers for it. */
export const fresh = (source: string) => `${source}\n// ${randomBytes(8).toString('hex')}\n`;

/** The real app with a working runner (checked), its data folder in TEST_DATA_DIR. */
export async function startRunnerApp(
  runnerOptions: { maxWaiting?: number } = {},
): Promise<{ app: TestApp; runner: CodeRunner }> {
  mkdirSync(TEST_DATA_DIR, { recursive: true });
  const runner = createCodeRunner({
    dir: TEST_RUN_DIR,
    prebuiltIncludeSets: [['iostream']],
    ...runnerOptions,
  });
  const app = await startTestApp(
    { dataDir: TEST_DATA_DIR },
    { codeRunner: runner, runCodeRateLimit: RELAXED_LIMIT },
  );
  const availability = await runner.warmUp({ prebuild: true });
  if (!availability.ok) {
    await app.stop();
    throw new Error(`the sandbox is not available: ${availability.reason}`);
  }
  await runner.headersSettled();
  return { app, runner };
}

export function postCode(app: TestApp, code: string) {
  return app.client().post<RunCodeResponse & ApiError>('/run-code', { code });
}
