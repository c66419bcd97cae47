import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';

import type { RunCodeResponse } from '@portfolio/types';

import { HttpError } from '../../lib/errors.js';
import { setBounded } from '../../lib/memoize.js';
import { createPchStore, type PchStore } from './pch.js';
import { buildHelper, findTools, type Sandbox, SandboxFailure } from './sandbox.js';
import { createSpawnerLauncher, type ProcessLauncher } from './spawner.js';

export type RunnerAvailability = { ok: true } | { ok: false; reason: string };

export interface CodeRunner {
  /**
   * Checks the sandbox once (tools, helper, a self-test run) and, when `prebuild` is set, builds
   * the common precompiled headers in the background. Safe to call many times.
   */
  warmUp(options?: { prebuild?: boolean }): Promise<RunnerAvailability>;
  /** Compiles and runs one source; throws 503 (no sandbox) or 429 (queue full). */
  run(code: string): Promise<RunCodeResponse>;
  /** Resolves once the background header builds started so far have finished (bench, tests). */
  headersSettled(): Promise<void>;
  readonly stats: { active: number; waiting: number; cached: number; headers: number };
  /** Stops the spawner (running sandboxes are killed with it). */
  close(): void;
}

export interface CodeRunnerOptions {
  /** Folder for the helper binary and the precompiled headers (`<DATA_DIR>/run-code`). */
  dir: string;
  /** Runs at once; default: the CPU cores. */
  concurrency?: number;
  /** Submissions allowed to wait for a free slot; beyond, 429. Default: 4 per slot. */
  maxWaiting?: number;
  /** Results kept for identical sources. */
  cacheEntries?: number;
  /** First of the uids the runs use (one per concurrent run: uidBase … uidBase+concurrency-1). */
  uidBase?: number;
  /** Include sets whose precompiled headers warmUp({ prebuild }) makes (tests make fewer). */
  prebuiltIncludeSets?: readonly (readonly string[])[];
  /** Starts the processes; default: the spawner child (see spawner.ts). */
  launcher?: ProcessLauncher;
  /** Replaces the sandbox check (tests inject an unavailable sandbox). */
  detect?: () => Promise<RunnerAvailability>;
  log?: (message: string) => void;
}

/** Well above Debian's dynamic ranges and below nobody (65534); no account needs to exist. */
export const DEFAULT_UID_BASE = 61_000;

const unavailable = (reason: string) =>
  new HttpError(
    503,
    'RUNNER_UNAVAILABLE',
    `Running code is not available on this server: ${reason}`,
  );

const SELF_TEST_OUTPUT = 'sandbox self-test ok';

/** A program that passes only inside a working sandbox: not root, host folder out of sight. */
function selfTestSource(hiddenDir: string): string {
  return `#include <cstdio>
#include <unistd.h>
int main() {
  if (getuid() == 0) { std::puts("running as root"); return 1; }
  if (access(${JSON.stringify(hiddenDir)}, F_OK) == 0) { std::puts("host folder visible"); return 1; }
  std::puts(${JSON.stringify(SELF_TEST_OUTPUT)});
  return 0;
}
`;
}

/** A least-recently-used map of results by source hash. */
class ResultCache {
  private readonly entries = new Map<string, RunCodeResponse>();
  constructor(private readonly max: number) {}

  get(key: string): RunCodeResponse | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: RunCodeResponse): void {
    setBounded(this.entries, key, value, this.max);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The `/run-code` service: a bounded queue in front of the sandbox (one uid per slot), a cache of
 * results by source, and the availability check that keeps code from ever running unsandboxed.
 */
export function createCodeRunner(options: CodeRunnerOptions): CodeRunner {
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const maxWaiting = options.maxWaiting ?? concurrency * 4;
  const uidBase = options.uidBase ?? DEFAULT_UID_BASE;
  const cache = new ResultCache(options.cacheEntries ?? 256);
  const inFlight = new Map<string, Promise<RunCodeResponse>>();
  const freeUids = Array.from({ length: concurrency }, (_, index) => uidBase + index);
  const waiting: Array<(uid: number) => void> = [];
  const log = options.log ?? (() => undefined);
  const launcher = options.launcher ?? createSpawnerLauncher();
  let sandbox: Sandbox | undefined;
  let pch: PchStore | undefined;
  let detection: Promise<RunnerAvailability> | undefined;
  let prebuild: Promise<void> = Promise.resolve();

  async function detectSandbox(): Promise<RunnerAvailability> {
    if (process.getuid?.() !== 0) {
      return {
        ok: false,
        reason: 'the server must start as root so that each program runs under its own uid.',
      };
    }
    const tools = await findTools();
    if ('missing' in tools) {
      return {
        ok: false,
        reason: `the C++ sandbox needs ${tools.missing.join(', ')}, which ${tools.missing.length === 1 ? 'is' : 'are'} not installed.`,
      };
    }
    const ready = await buildHelper(options.dir, tools, (file, args, hostOptions) =>
      launcher.host(file, args, hostOptions),
    );
    const version = await launcher.host(tools.gpp, ['-dumpfullversion', '-dumpmachine'], {
      timeoutMs: 10_000,
    });
    const outcome = await launcher.sandbox(ready, {
      source: selfTestSource(path.resolve(options.dir)),
      uid: uidBase,
    });
    if (outcome.exitCode !== 0 || outcome.output.trim() !== SELF_TEST_OUTPUT) {
      return {
        ok: false,
        reason: `the sandbox self-test failed (${outcome.output.trim().slice(0, 300) || 'no output'}).`,
      };
    }
    sandbox = ready;
    pch = createPchStore({
      dir: path.join(options.dir, 'pch'),
      tools,
      launcher,
      compilerVersion: `${tools.gpp} ${version.stdout.trim()}`,
      log,
      ...(options.prebuiltIncludeSets ? { prebuilt: options.prebuiltIncludeSets } : {}),
    });
    return { ok: true };
  }

  function ensureDetected(): Promise<RunnerAvailability> {
    detection ??= (options.detect ?? detectSandbox)().catch((error: unknown) => {
      log(`sandbox check failed: ${error instanceof Error ? error.message : String(error)}`);
      return {
        ok: false as const,
        reason:
          error instanceof SandboxFailure
            ? 'the sandbox does not work on this machine (user namespaces may be disabled).'
            : 'the sandbox check failed.',
      };
    });
    return detection;
  }

  function acquireUid(): Promise<number> {
    const uid = freeUids.pop();
    if (uid !== undefined) {
      return Promise.resolve(uid);
    }
    if (waiting.length >= maxWaiting) {
      throw new HttpError(
        429,
        'RUNNER_BUSY',
        'The code runner is busy with other programs. Please try again in a few seconds.',
        undefined,
        { 'Retry-After': '5' },
      );
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function releaseUid(uid: number): void {
    const next = waiting.shift();
    if (next) {
      next(uid);
    } else {
      freeUids.push(uid);
    }
  }

  async function execute(code: string): Promise<RunCodeResponse> {
    const uid = await acquireUid();
    try {
      if (!sandbox || !pch) {
        throw unavailable('the sandbox is not ready.');
      }
      const pchDir = pch.lookup(code);
      const outcome = await launcher.sandbox(sandbox, { source: code, uid, pchDir });
      return {
        output: outcome.output,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        truncated: outcome.truncated,
      };
    } catch (error) {
      if (error instanceof SandboxFailure) {
        log(error.message);
        throw new HttpError(
          503,
          'RUNNER_FAILED',
          'The sandbox could not run this program. Please try again in a moment.',
        );
      }
      throw error;
    } finally {
      releaseUid(uid);
    }
  }

  return {
    async warmUp(warmOptions = {}) {
      const availability = await ensureDetected();
      if (availability.ok && warmOptions.prebuild && pch) {
        prebuild = pch.prebuild();
      }
      return availability;
    },

    async run(code) {
      const availability = await ensureDetected();
      if (!availability.ok) {
        throw unavailable(availability.reason);
      }
      const key = createHash('sha256').update(code).digest('hex');
      const cached = cache.get(key);
      if (cached) {
        return cached;
      }
      const running = inFlight.get(key);
      if (running) {
        return running;
      }
      const result = execute(code).then((response) => {
        // a time limit can depend on how busy the machine was: such a result is not the source's
        if (!response.timedOut) {
          cache.set(key, response);
        }
        return response;
      });
      inFlight.set(key, result);
      try {
        return await result;
      } finally {
        inFlight.delete(key);
      }
    },

    headersSettled() {
      return prebuild;
    },

    close() {
      launcher.close();
    },

    get stats() {
      return {
        active: concurrency - freeUids.length,
        waiting: waiting.length,
        cached: cache.size,
        headers: pch?.readyCount ?? 0,
      };
    },
  };
}
