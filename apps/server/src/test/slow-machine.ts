import { availableParallelism, loadavg } from 'node:os';

/** vitest's limits for one test and one hook on an idle machine (vitest.config.ts). */
export const BASE_TEST_TIMEOUT_MS = 30_000;
export const BASE_HOOK_TIMEOUT_MS = 60_000;

/**
 * How many times longer than on an idle machine the tests may take: their time limits (vitest's
 * test and hook timeouts, the limits tests set themselves, Playwright's) are multiplied by it.
 * `TEST_TIME_FACTOR` sets it (a number of at least 1); unset, it follows the machine: the load
 * per core over the last minute, read as each test file starts (5 at a load of 10 on 2 cores),
 * never below 1. Time limits the product itself keeps (a compile's 30 s) are not changed.
 */
export function slowMachineFactor(
  env: Record<string, string | undefined> = process.env,
  load: number = loadavg()[0] ?? 0,
  cores: number = availableParallelism(),
): number {
  const set = env.TEST_TIME_FACTOR?.trim();
  if (set) {
    const factor = Number(set);
    if (!Number.isFinite(factor) || factor < 1) {
      throw new Error(`TEST_TIME_FACTOR must be a number of at least 1, not '${set}'`);
    }
    return factor;
  }
  return Math.max(1, Math.round((load / Math.max(1, cores)) * 10) / 10);
}

/** A time limit of `ms` on an idle machine, on this one (see slowMachineFactor). */
export function scaled(ms: number): number {
  return Math.round(ms * slowMachineFactor());
}
