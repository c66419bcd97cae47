import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';

import {
  CPP_STANDARDS,
  OPTIMIZATION_LEVELS,
  type RunCodeBackend,
  type RunCodeInfo,
  type RunCodeInput,
  type RunCodeResponse,
} from '@portfolio/types';

import { HttpError } from '../../lib/errors.js';
import { setBounded } from '../../lib/memoize.js';
import { BackendFailure, type RunBackend } from './backend.js';
import { parseDiagnostics } from './diagnostics.js';
import { runCodeQueueWait } from '../../lib/metrics.js';
import { FairQueue, type RunClient, type RunSpending } from './fair-queue.js';
import { refuseUnsafeIncludes } from './includes.js';
import { RUN_CODE_LIMITS } from './limits.js';
import { createNativeBackend, DEFAULT_UID_BASE } from './native-backend.js';
import type { ProcessLauncher } from './spawner.js';
import { createWasmBackend } from './wasm-backend.js';

/** Which backend runs programs: `auto` takes the native sandbox when its self-test passes. */
export type BackendChoice = 'auto' | RunCodeBackend;

export type RunnerAvailability =
  | { ok: true; backend: RunCodeBackend; reason: string; compiler: string }
  | { ok: false; reason: string };

export type RunCodeJob = RunCodeInput;

export interface CodeRunner {
  /**
   * Picks the backend once (tools, helper, a self-test run) and, when `prebuild` is set, warms
   * it in the background (precompiled headers, the WebAssembly compiler). Safe to call many times.
   */
  warmUp(options?: { prebuild?: boolean }): Promise<RunnerAvailability>;
  /** Compiles and runs one source; throws 503 (no backend) or 429 (queue or budget full). */
  run(job: RunCodeJob, client?: RunClient): Promise<RunCodeResponse>;
  /** What `GET /api/run-code/info` answers. */
  info(): Promise<RunCodeInfo>;
  /** Resolves once the background warm-up started so far has finished (bench, tests). */
  headersSettled(): Promise<void>;
  readonly stats: { active: number; waiting: number; cached: number };
  /** The backend chosen at warm-up (null before, or when none works): the metrics' label. */
  selectedBackend(): RunCodeBackend | null;
  /** Stops the backend (running programs are killed with it). */
  close(): void;
}

export interface CodeRunnerOptions {
  /** Folder for the native helper binary and the precompiled headers (`<DATA_DIR>/run-code`). */
  dir: string;
  /** RUN_CODE_BACKEND; default auto. */
  backend?: BackendChoice;
  /** Runs at once; default: the CPU cores. */
  concurrency?: number;
  /** Submissions allowed to wait for a free slot; beyond, 429. Default: 4 per slot. */
  maxWaiting?: number;
  /**
   * Seconds one address's or user's programs may run per minute, sleeping included
   * (RUN_CODE_SLOT_SECONDS_PER_MINUTE).
   */
  slotSecondsPerMinute?: number;
  /** CPU seconds one address's or user's compiles may use per minute (RUN_CODE_COMPILE_SECONDS_PER_MINUTE). */
  compileSecondsPerMinute?: number;
  /** Wall time one compile may take (RUN_CODE_COMPILE_WALL_SECONDS; 30 s). */
  compileWallSeconds?: number;
  /** Results kept for identical requests. */
  cacheEntries?: number;
  /** First of the uids native runs use (one per slot: uidBase … uidBase+concurrency-1). */
  uidBase?: number;
  /** Include sets whose precompiled headers warmUp({ prebuild }) makes (tests make fewer). */
  prebuiltIncludeSets?: readonly (readonly string[])[];
  /** Starts the native sandbox's processes; default: the spawner child (see spawner.ts). */
  launcher?: ProcessLauncher;
  /** Replaces the backend check (tests inject an unavailable runner). */
  detect?: () => Promise<{ ok: false; reason: string }>;
  /** Replaces the backends (tests). */
  backends?: Partial<Record<RunCodeBackend, RunBackend>>;
  log?: (message: string) => void;
}

export const DEFAULT_SLOT_SECONDS_PER_MINUTE = 30;
export const DEFAULT_COMPILE_SECONDS_PER_MINUTE = 30;

const unavailable = (reason: string) =>
  new HttpError('RUNNER_UNAVAILABLE', `Running code is not available on this server: ${reason}`);

/** A least-recently-used map of results by request hash. */
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

const LIMITS_SHOWN = {
  cpuSeconds: RUN_CODE_LIMITS.runCpuSeconds,
  wallSeconds: RUN_CODE_LIMITS.runWallSeconds,
  memoryMb: RUN_CODE_LIMITS.runMemoryBytes / (1024 * 1024),
  outputKb: RUN_CODE_LIMITS.outputBytes / 1024,
  compileSeconds: RUN_CODE_LIMITS.compileSeconds,
};

/** A backend by name, built on first use. */
function createBackend(
  name: RunCodeBackend,
  options: CodeRunnerOptions,
  concurrency: number,
  log: (message: string) => void,
): RunBackend {
  return name === 'native'
    ? createNativeBackend({
        dir: options.dir,
        uidBase: options.uidBase ?? DEFAULT_UID_BASE,
        log,
        ...(options.launcher ? { launcher: options.launcher } : {}),
        ...(options.prebuiltIncludeSets
          ? { prebuiltIncludeSets: options.prebuiltIncludeSets }
          : {}),
        compileWallSeconds: options.compileWallSeconds,
      })
    : createWasmBackend({ concurrency, log, compileWallSeconds: options.compileWallSeconds });
}

/** A result's cache key: the same program, input and options on the same backend. */
const cacheKeyOf = (backend: RunCodeBackend, job: RunCodeJob) =>
  createHash('sha256')
    .update(JSON.stringify([backend, job.standard, job.optimization, job.code, job.stdin]))
    .digest('hex');

/** One job on the chosen backend: refused includes answer at once, else it waits for a slot. */
async function execute(
  queue: FairQueue,
  log: (message: string) => void,
  backend: RunBackend,
  job: RunCodeJob,
  client: RunClient,
): Promise<RunCodeResponse> {
  const refusal = refuseUnsafeIncludes(job.code);
  if (refusal) {
    return {
      output: refusal.output,
      exitCode: null,
      signal: null,
      timedOut: false,
      truncated: false,
      compiled: false,
      diagnostics: refusal.diagnostics,
      durationMs: 0,
      cached: false,
      backend: backend.name,
    };
  }
  const waitStarted = performance.now();
  const slot = await queue.acquire(client);
  runCodeQueueWait.labels(backend.name).observe((performance.now() - waitStarted) / 1000);
  // what the run spent, drawn from the client's budgets (unknown if the backend failed)
  let spent: RunSpending | undefined;
  try {
    const outcome = await backend.run({
      source: job.code,
      stdin: job.stdin,
      standard: job.standard,
      optimization: job.optimization,
      slot: slot.index,
    });
    spent = { compileMs: outcome.compileCpuMs, runMs: outcome.durationMs };
    return {
      output: outcome.output,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      truncated: outcome.truncated,
      compiled: outcome.compiled,
      diagnostics: parseDiagnostics(outcome.compilerOutput, job.code),
      durationMs: Math.round(outcome.durationMs),
      cached: false,
      backend: backend.name,
    };
  } catch (error) {
    if (error instanceof BackendFailure) {
      log(error.message);
      throw new HttpError(
        'RUNNER_FAILED',
        'The sandbox could not run this program. Please try again in a moment.',
      );
    }
    throw error;
  } finally {
    slot.release(spent);
  }
}

/**
 * The `/run-code` service: a fair queue in front of one backend (the native sandbox or Clang in
 * WebAssembly, picked once), a cache of results by request, and the availability check that
 * keeps code from ever running outside a sandbox.
 */
export function createCodeRunner(options: CodeRunnerOptions): CodeRunner {
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const queue = new FairQueue({
    slots: concurrency,
    maxWaiting: options.maxWaiting ?? concurrency * 4,
    slotSecondsPerMinute: options.slotSecondsPerMinute ?? DEFAULT_SLOT_SECONDS_PER_MINUTE,
    compileSecondsPerMinute: options.compileSecondsPerMinute ?? DEFAULT_COMPILE_SECONDS_PER_MINUTE,
  });
  const cache = new ResultCache(options.cacheEntries ?? 256);
  const inFlight = new Map<string, Promise<RunCodeResponse>>();
  const log = options.log ?? (() => undefined);
  const choice = options.backend ?? 'auto';
  const backends: Partial<Record<RunCodeBackend, RunBackend>> = { ...options.backends };
  let selected: RunBackend | undefined;
  let detection: Promise<RunnerAvailability> | undefined;
  let prebuild: Promise<void> = Promise.resolve();

  function backendFor(name: RunCodeBackend): RunBackend {
    let backend = backends[name];
    if (!backend) {
      backend = createBackend(name, options, concurrency, log);
      backends[name] = backend;
    }
    return backend;
  }

  async function choose(): Promise<RunnerAvailability> {
    if (options.detect) {
      return options.detect();
    }
    const use = async (name: RunCodeBackend, why: string): Promise<RunnerAvailability> => {
      const backend = backendFor(name);
      const status = await backend.detect();
      if (!status.ok) {
        return { ok: false, reason: status.reason };
      }
      selected = backend;
      return { ok: true, backend: name, reason: why, compiler: status.compiler };
    };
    if (choice !== 'auto') {
      return use(choice, `RUN_CODE_BACKEND=${choice}`);
    }
    const native = await use('native', 'auto: the native sandbox passed its self-test');
    if (native.ok) {
      return native;
    }
    backends.native?.close();
    const wasm = await use(
      'wasm',
      `auto: the native sandbox is not available (${native.reason.replace(/\.$/, '')}), so programs run in WebAssembly`,
    );
    return wasm.ok
      ? wasm
      : {
          ok: false,
          reason: `neither backend works here. Native: ${native.reason} WebAssembly: ${wasm.reason}`,
        };
  }

  function ensureDetected(): Promise<RunnerAvailability> {
    detection ??= choose().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      log(`runner check failed: ${message}`);
      return { ok: false as const, reason: `the runner check failed (${message}).` };
    });
    return detection;
  }

  return {
    async warmUp(warmOptions = {}) {
      const availability = await ensureDetected();
      if (availability.ok && warmOptions.prebuild && selected) {
        prebuild = selected.prebuild().catch((error: unknown) => {
          log(`warm-up failed: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
      return availability;
    },

    async run(job, client = { address: 'unknown' }) {
      const availability = await ensureDetected();
      if (!availability.ok || !selected) {
        throw unavailable(availability.ok ? 'the runner is not ready.' : availability.reason);
      }
      const backend = selected;
      const key = cacheKeyOf(backend.name, job);
      const cached = cache.get(key);
      if (cached) {
        return { ...cached, cached: true };
      }
      const running = inFlight.get(key);
      if (running) {
        return running;
      }
      const result = execute(queue, log, backend, job, client).then((response) => {
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

    async info() {
      const availability = await ensureDetected();
      return {
        available: availability.ok,
        backend: availability.ok ? availability.backend : null,
        reason: availability.reason,
        compiler: availability.ok ? availability.compiler : '',
        limits: LIMITS_SHOWN,
        standards: [...CPP_STANDARDS],
        optimizations: [...OPTIMIZATION_LEVELS],
      };
    },

    headersSettled() {
      return prebuild;
    },

    close() {
      for (const backend of Object.values(backends)) {
        backend.close();
      }
    },

    get stats() {
      return { active: queue.active, waiting: queue.queued, cached: cache.size };
    },

    selectedBackend() {
      return selected?.name ?? null;
    },
  };
}
