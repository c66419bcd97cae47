import { existsSync, openSync, readFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { DEFAULT_CPP_STANDARD, DEFAULT_OPTIMIZATION } from '@portfolio/types';

import type { BackendStatus, RunBackend, RunJob, RunOutcome } from './backend.js';
import { BackendFailure } from './backend.js';
import { NOTICES, RUN_CODE_LIMITS, withNotice } from './limits.js';
import {
  type CompileRequest,
  type CompileWorkerData,
  type CompileWorkerMessage,
  OUTPUT_HEADER_BYTES,
  type RunWorkerData,
  STOP_INDEX,
  type RunWorkerMessage,
} from './wasm-protocol.js';

/** How often a running compile's or program's CPU time is read. */
const POLL_MS = 50;

/**
 * Starts a worker thread: its own entry in dist/ in the bundle (scripts/build.mjs); from source
 * (tests, development) the .ts file beside this one, loaded through tsx's API (Node 20 does not
 * apply `--import tsx` to a worker's own entry).
 */
function startWorker(
  name: 'wasm-compile-worker' | 'wasm-run-worker',
  options: ConstructorParameters<typeof Worker>[1] = {},
): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL(`./run-code-${name}.js`, import.meta.url), options);
  }
  // require.resolve finds the CommonJS build; the ES module sits beside it
  const tsxApi = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(tsxApi).href;
  const entry = new URL(`./${name}.ts`, import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** CPU time (ms) of one of this process's threads, from /proc; undefined where there is none. */
function threadCpuMs(tid: number): number | undefined {
  if (tid <= 0) {
    return undefined;
  }
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) "
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Whether this system shows threads' CPU time (Linux); elsewhere wall time stands in for it. */
const HAS_THREAD_TIMES = existsSync('/proc/self/task');

/**
 * Watches a worker's time once it has started its work (`tid` is its OS thread, 0 before it
 * starts): ends it when the thread's CPU time passes `cpuMs` (wall time where the system shows
 * no thread times), or its wall time passes `wallMs`. `usedMs` is the CPU time used so far.
 */
function watchLimits(options: {
  tid: () => number;
  cpuMs: number;
  wallMs: number;
  onLimit: (kind: 'cpu' | 'wall') => void;
}): { stop: () => void; elapsedMs: () => number; usedMs: () => number } {
  let startedAt: number | undefined;
  let cpuAtStart: number | undefined;
  /** Wall and CPU time since the work started (undefined before it has). */
  const measure = () => {
    const tid = options.tid();
    if (tid === 0) {
      return undefined;
    }
    const now = performance.now();
    startedAt ??= now;
    const elapsed = now - startedAt;
    const cpu = HAS_THREAD_TIMES ? threadCpuMs(tid) : undefined;
    cpuAtStart ??= cpu;
    const used = cpu === undefined || cpuAtStart === undefined ? elapsed : cpu - cpuAtStart;
    return { elapsed, used };
  };
  let lastUsed = 0;
  const check = () => {
    const times = measure();
    if (!times) {
      return;
    }
    lastUsed = times.used;
    if (times.used > options.cpuMs) {
      options.onLimit('cpu');
    } else if (times.elapsed > options.wallMs) {
      options.onLimit('wall');
    }
  };
  const timer = setInterval(check, POLL_MS);
  check();
  return {
    stop: () => clearInterval(timer),
    elapsedMs: () => (startedAt === undefined ? 0 : performance.now() - startedAt),
    usedMs: () => {
      lastUsed = Math.max(lastUsed, measure()?.used ?? 0);
      return lastUsed;
    },
  };
}

interface CompileResult {
  ok: boolean;
  compilerOutput: string;
  /** The compiler said more than the output limit (compilerOutput is cut there). */
  truncated?: boolean;
  program?: Uint8Array;
  /** The compile hit its CPU or wall-time limit. */
  timedOut?: 'cpu' | 'wall';
  /** The compiler thread's CPU time for this compile (wall time where threads show none). */
  cpuMs: number;
}

/** How a compile worker warms up before it is ready: the tutorials' first program. */
const WARM_UP: CompileWorkerData = {
  warmUp: {
    id: 0,
    source: '#include <iostream>\nint main() { std::cout << "warm" << std::endl; }\n',
    standard: DEFAULT_CPP_STANDARD,
    optimization: DEFAULT_OPTIMIZATION,
  },
};

/**
 * One compile worker: loads Clang and warms it up (see the worker's warmUp), then compiles job
 * after job. `ready` settles once it can take a job; until then nothing is counted against one.
 */
class CompileWorker {
  readonly ready: Promise<{ tid: number; version: string }>;
  private readonly worker: Worker;
  private tid = 0;
  private nextId = 1;
  private pending:
    | {
        id: number;
        isStarted: boolean;
        resolve: (result: Omit<CompileResult, 'cpuMs'>) => void;
        reject: (error: Error) => void;
      }
    | undefined;
  isReady = false;
  isDead = false;
  /** Why it ended before it was ready. */
  failure: Error | undefined;

  constructor(
    onExit: (worker: CompileWorker) => void,
    private readonly compileWallSeconds: number,
  ) {
    this.worker = startWorker('wasm-compile-worker', { workerData: WARM_UP });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: CompileWorkerMessage) => {
        if (message.type === 'ready') {
          this.tid = message.tid;
          this.isReady = true;
          resolve({ tid: message.tid, version: message.version });
          return;
        }
        const pending = this.pending;
        if (!pending || pending.id !== message.id) {
          return;
        }
        if (message.type === 'started') {
          pending.isStarted = true;
          return;
        }
        this.pending = undefined;
        if (message.type === 'failed') {
          pending.reject(new BackendFailure(`the WebAssembly compiler failed: ${message.message}`));
        } else {
          pending.resolve(
            message.ok
              ? {
                  ok: true,
                  compilerOutput: message.compilerOutput,
                  truncated: message.truncated,
                  program: message.program,
                }
              : { ok: false, compilerOutput: message.compilerOutput, truncated: message.truncated },
          );
        }
      });
      this.worker.on('error', (error) => {
        this.failure ??= new BackendFailure(
          `the WebAssembly compiler could not start: ${error.message}`,
        );
        reject(this.failure);
        this.pending?.reject(
          new BackendFailure(`the WebAssembly compiler failed: ${error.message}`),
        );
        this.pending = undefined;
      });
      this.worker.on('exit', () => {
        this.isDead = true;
        this.failure ??= new BackendFailure('the WebAssembly compiler exited');
        reject(this.failure);
        this.pending?.reject(new BackendFailure('the WebAssembly compiler exited'));
        this.pending = undefined;
        onExit(this);
      });
    });
    // a worker that never gets ready is reported by the job that waits for it (see CompilePool)
    this.ready.catch(() => undefined);
  }

  /**
   * Compiles one source within the compile limits, counted from when the worker starts it
   * (ending this worker if they are passed).
   */
  compile(job: RunJob): Promise<CompileResult> {
    const id = this.nextId++;
    const limits = RUN_CODE_LIMITS;
    return new Promise<CompileResult>((resolve, reject) => {
      let limited = false;
      const watch = watchLimits({
        // counted from when the worker starts this compile (it may finish a header first)
        tid: () => (this.pending?.id !== id || !this.pending.isStarted ? 0 : this.tid),
        cpuMs: limits.compileSeconds * 1000,
        wallMs: this.compileWallSeconds * 1000,
        onLimit: (kind) => {
          if (limited) {
            return;
          }
          limited = true;
          const cpuMs = watch.usedMs();
          this.pending = undefined;
          watch.stop();
          this.isDead = true;
          void this.worker.terminate();
          resolve({ ok: false, compilerOutput: '', timedOut: kind, cpuMs });
        },
      });
      this.pending = {
        id,
        isStarted: false,
        resolve: (result) => {
          const cpuMs = watch.usedMs();
          watch.stop();
          resolve({ ...result, cpuMs });
        },
        reject: (error) => {
          watch.stop();
          if (!limited) {
            reject(error);
          }
        },
      };
      this.worker.postMessage({
        id,
        source: job.source,
        standard: job.standard,
        optimization: job.optimization,
      } satisfies CompileRequest);
    });
  }

  terminate() {
    void this.worker.terminate();
  }
}

/**
 * Compile workers, at most `size`, each kept (with Clang loaded and warm) between compiles. A
 * worker takes jobs only once it is ready; one ended at a limit is replaced at once, so the next
 * compile finds a warm compiler rather than waiting for a new one to load.
 */
class CompilePool {
  private readonly workers = new Set<CompileWorker>();
  private readonly idle: CompileWorker[] = [];
  private readonly waiters: Array<{
    resolve: (worker: CompileWorker) => void;
    reject: (error: Error) => void;
  }> = [];
  private isClosed = false;

  constructor(
    private readonly size: number,
    private readonly compileWallSeconds: number,
  ) {}

  private spawn(): CompileWorker {
    const worker = new CompileWorker((gone) => this.forget(gone), this.compileWallSeconds);
    this.workers.add(worker);
    worker.ready.then(
      () => this.give(worker),
      () => undefined,
    );
    return worker;
  }

  private forget(gone: CompileWorker) {
    this.workers.delete(gone);
    const index = this.idle.indexOf(gone);
    if (index >= 0) {
      this.idle.splice(index, 1);
    }
    if (this.isClosed) {
      return;
    }
    if (!gone.isReady) {
      // it could not start: a compile waiting for it is told why (no endless restarts)
      this.waiters.shift()?.reject(gone.failure ?? new BackendFailure('the compiler exited'));
      if (this.waiters.length > 0 && this.workers.size === 0) {
        this.spawn();
      }
      return;
    }
    // ended at a limit: its replacement loads and warms up before anyone needs it
    this.spawn();
  }

  /** Starts one worker ahead of the first compile (the compiler takes seconds to load). */
  warm(): Promise<{ tid: number; version: string }> {
    const first = this.workers.values().next();
    return (first.done ? this.spawn() : first.value).ready;
  }

  /** Starts every worker the pool may have, and waits until they are all ready. */
  async fill(): Promise<void> {
    while (this.workers.size < this.size) {
      this.spawn();
    }
    await Promise.all([...this.workers].map((worker) => worker.ready));
  }

  async compile(job: RunJob): Promise<CompileResult> {
    const worker = await this.take();
    try {
      return await worker.compile(job);
    } finally {
      this.give(worker);
    }
  }

  private take(): Promise<CompileWorker> {
    const idle = this.idle.pop();
    if (idle) {
      return Promise.resolve(idle);
    }
    if (this.workers.size < this.size) {
      this.spawn();
    }
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private give(worker: CompileWorker) {
    if (worker.isDead || this.isClosed) {
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve(worker);
    } else {
      this.idle.push(worker);
    }
  }

  close() {
    this.isClosed = true;
    for (const worker of this.workers) {
      worker.terminate();
    }
    this.workers.clear();
    this.idle.length = 0;
    for (const waiter of this.waiters.splice(0)) {
      waiter.reject(new BackendFailure('the WebAssembly backend was closed'));
    }
  }
}

let nullFd: number | undefined;

/**
 * The null device every program's WASI descriptors 0-2 point at, opened once: a descriptor per
 * run would have to be closed after it, and a run's worker can be ended at any moment.
 */
function sharedNullFd(): number {
  nullFd ??= openSync(devNull, 'r+');
  return nullFd;
}

/** The resource limits of a run worker: its program's memory is its own (capped at link time). */
const RUN_WORKER_OPTIONS = {
  resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
  stdout: true,
  stderr: true,
} satisfies ConstructorParameters<typeof Worker>[1];

/**
 * Run workers started ahead of their run (a worker's start-up costs more than a small program's
 * whole run): one waits, unused, for the next program. Each worker still runs a single program.
 */
class SpareRunWorker {
  private spare: Worker | undefined;
  private isClosed = false;

  /** A fresh worker for one run (the waiting one if there is one). */
  take(): Worker {
    const worker = this.spare ?? startWorker('wasm-run-worker', RUN_WORKER_OPTIONS);
    this.spare = undefined;
    worker.removeAllListeners();
    worker.ref();
    return worker;
  }

  /** Starts the next spare (after a run, so that its start-up does not slow the run down). */
  refill() {
    if (this.spare || this.isClosed) {
      return;
    }
    const worker = startWorker('wasm-run-worker', RUN_WORKER_OPTIONS);
    worker.unref();
    const drop = () => {
      if (this.spare === worker) {
        this.spare = undefined;
      }
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    this.spare = worker;
  }

  close() {
    this.isClosed = true;
    void this.spare?.terminate();
    this.spare = undefined;
  }
}

/** Runs a compiled program in a fresh worker within the run limits; the same notices as native. */
function runProgram(
  workers: SpareRunWorker,
  program: Uint8Array,
  stdin: string,
): Promise<Omit<RunOutcome, 'compilerOutput' | 'compiled' | 'compileCpuMs'>> {
  const limits = RUN_CODE_LIMITS;
  const shared = new SharedArrayBuffer(OUTPUT_HEADER_BYTES + limits.outputBytes);
  const header = new Int32Array(shared, 0, OUTPUT_HEADER_BYTES / 4);
  const worker = workers.take();
  const data: RunWorkerData = {
    program,
    stdin: new Uint8Array(Buffer.from(stdin, 'utf8')),
    shared,
    outputLimit: limits.outputBytes,
    nullFd: sharedNullFd(),
  };
  worker.postMessage(data, [program.buffer as ArrayBuffer]);
  return new Promise((resolve, reject) => {
    let settled: RunWorkerMessage | { type: 'limit'; kind: 'cpu' | 'wall' } | undefined;
    const watch = watchLimits({
      // the worker sets its thread id as the program starts (its own start-up does not count)
      tid: () => Atomics.load(header, 1),
      cpuMs: limits.runCpuSeconds * 1000,
      wallMs: limits.runWallSeconds * 1000,
      onLimit: (kind) => {
        settled ??= { type: 'limit', kind };
        // wakes a program that sleeps (see poll_oneoff in the worker), then ends the thread
        Atomics.store(header, STOP_INDEX, 1);
        Atomics.notify(header, STOP_INDEX);
        void worker.terminate();
      },
    });
    worker.on('message', (message: RunWorkerMessage) => {
      settled ??= message;
    });
    worker.on('error', (error) => {
      settled ??= { type: 'failed', message: error.message };
    });
    worker.on('exit', () => {
      watch.stop();
      workers.refill();
      const durationMs = watch.elapsedMs();
      const length = Math.min(Atomics.load(header, 0), limits.outputBytes);
      let output = Buffer.from(new Uint8Array(shared, OUTPUT_HEADER_BYTES, length)).toString(
        'utf8',
      );
      const truncated = Atomics.load(header, 2) === 1;
      if (truncated) {
        output = withNotice(output, NOTICES.truncated);
      }
      const outcome = settled ?? { type: 'failed', message: 'the program worker ended silently' };
      switch (outcome.type) {
        case 'exit':
          resolve({
            output,
            exitCode: outcome.code,
            signal: null,
            timedOut: false,
            truncated,
            durationMs: outcome.durationMs,
          });
          return;
        case 'truncated':
          resolve({
            output,
            exitCode: null,
            signal: 'SIGKILL',
            timedOut: false,
            truncated,
            durationMs,
          });
          return;
        case 'trap':
          resolve({
            output: withNotice(output, NOTICES.signal(outcome.signal)),
            exitCode: null,
            signal: outcome.signal,
            timedOut: false,
            truncated,
            durationMs,
          });
          return;
        case 'limit':
          resolve({
            output: withNotice(
              output,
              outcome.kind === 'cpu' ? NOTICES.cpuLimit : NOTICES.wallLimit,
            ),
            exitCode: null,
            signal: 'SIGKILL',
            timedOut: true,
            truncated,
            durationMs,
          });
          return;
        case 'failed':
          reject(new BackendFailure(`the WebAssembly program could not run: ${outcome.message}`));
      }
    });
  });
}

const EXCEPTIONS_NOTE =
  '[The WebAssembly backend compiles without C++ exceptions: try, catch and throw are not available on this server.]\n';

/**
 * The WebAssembly backend: Clang compiled to WebAssembly (@yowasp/clang) in a pool of worker
 * threads, and each program in a worker thread under WASI. Needs nothing from the system.
 */
export function createWasmBackend(options: {
  concurrency: number;
  compileWallSeconds?: number | undefined;
  log: (message: string) => void;
}): RunBackend {
  const compileWallSeconds = options.compileWallSeconds ?? RUN_CODE_LIMITS.compileWallSeconds;
  const pool = new CompilePool(Math.max(1, options.concurrency), compileWallSeconds);
  const runWorkers = new SpareRunWorker();
  let isReady = false;

  async function run(job: RunJob): Promise<RunOutcome> {
    const compiled = await pool.compile(job);
    const notRun = {
      exitCode: null,
      signal: null,
      compiled: false,
      durationMs: 0,
      compileCpuMs: compiled.cpuMs,
    };
    if (compiled.timedOut) {
      return {
        ...notRun,
        output: withNotice(
          compiled.compilerOutput,
          compiled.timedOut === 'cpu'
            ? NOTICES.compileCpuLimit
            : NOTICES.compileWallLimit(compileWallSeconds),
        ),
        compilerOutput: compiled.compilerOutput,
        signal: 'SIGKILL',
        timedOut: true,
        truncated: false,
      };
    }
    const { compilerOutput } = compiled;
    if (compiled.truncated) {
      // as native, whose compile is stopped when its messages pass the limit: not run
      return {
        ...notRun,
        output: withNotice(compilerOutput, NOTICES.truncated),
        compilerOutput,
        timedOut: false,
        truncated: true,
      };
    }
    if (!compiled.ok || !compiled.program) {
      const usesExceptions = /with exceptions disabled/.test(compilerOutput);
      const output =
        (compilerOutput || 'Compilation failed.\n') + (usesExceptions ? EXCEPTIONS_NOTE : '');
      return { ...notRun, output, compilerOutput, timedOut: false, truncated: false };
    }
    const outcome = await runProgram(runWorkers, compiled.program, job.stdin);
    return { ...outcome, compilerOutput, compiled: true, compileCpuMs: compiled.cpuMs };
  }

  return {
    name: 'wasm',

    async detect(): Promise<BackendStatus> {
      try {
        const { version } = await pool.warm();
        const outcome = await run({
          source: '#include <cstdio>\nint main() { std::puts("wasm self-test ok"); }\n',
          stdin: '',
          standard: DEFAULT_CPP_STANDARD,
          optimization: DEFAULT_OPTIMIZATION,
          slot: 0,
        });
        if (outcome.exitCode !== 0 || outcome.output !== 'wasm self-test ok\n') {
          return {
            ok: false,
            reason: `the WebAssembly self-test failed (${(outcome.output || outcome.compilerOutput).trim().slice(0, 300)}).`,
          };
        }
        isReady = true;
        return {
          ok: true,
          compiler: `${version.replace(/^clang version/, 'clang')} (WebAssembly, wasm32-wasip1)`,
        };
      } catch (error) {
        return {
          ok: false,
          reason: `Clang in WebAssembly does not work here (${error instanceof Error ? error.message : String(error)}).`,
        };
      }
    },

    run(job) {
      if (!isReady) {
        return Promise.reject(new BackendFailure('the WebAssembly backend is not ready'));
      }
      return run(job);
    },

    prebuild() {
      // every worker the pool may have, loaded and warmed up (each before it takes a job)
      return pool.fill();
    },

    close() {
      pool.close();
      runWorkers.close();
    },
  };
}
