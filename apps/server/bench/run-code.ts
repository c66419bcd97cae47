/**
 * C++ runner benchmark, both backends in one run.
 * Run: npm run bench:run-code -w @portfolio/server
 *
 * Native sandbox (skipped, with the reason, where it cannot run):
 * 1. Hello world through POST /run-code (sandbox, precompiled <iostream>, a new source each time
 *    so the cache never answers) against bare `g++ <same flags> && ./a.out` of the same source,
 *    alternating in rounds (the machine's speed drifts); the median ratio is the figure.
 *    Goal: ≤ 0.8× bare g++.
 * 2. A cached rerun (identical source). Goal: ≤ 20 ms.
 * 3. Heartbeat latency (POST /api/anonymous-heartbeat, 50/s) while the runner's queue is kept full
 *    of CPU-bound programs, against the same with the runner idle. Goal: p99 ≤ 25 ms.
 *
 *
 * Clang in WebAssembly (RUN_CODE_BACKEND=wasm), on any machine:
 * 4. Warm hello world compile+run through POST /run-code (a new source each time), against the
 *    native figure of 1. Goal: ≤ 3× native.
 * 5. A cached rerun. Goal: ≤ 20 ms.
 * 6. Peak memory per concurrent compile: the server process's peak RSS above its warm idle RSS
 *    while 1, then 2 compiles run at once (the pool holds one worker per slot).
 *
 * Each server runs in a child process (so the load generator does not share its event loop).
 * Its data folder (helper, precompiled headers, PGlite) is kept in the system's temp folder.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ms, printTable, startBenchServer, summarize } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CACHED_RUNS = 50;
const HEARTBEAT_RATE = 50;
const HEARTBEAT_SECONDS = 10;
const RUNNER_DIR = path.join(tmpdir(), 'portfolio-run-code-bench');

const HELLO = `#include <iostream>

int main() {
  std::cout << "Hello, World!" << std::endl;
  return 0;
}
`;

type LoopDelay = { p50: number; p99: number; max: number };
type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'unavailable'; reason: string }
  | { type: 'loop'; delay: LoopDelay }
  | { type: 'rss'; idle: number; peak: number };

const WASM_ROUNDS = Number(process.env.BENCH_WASM_ROUNDS ?? 10);

// ---------------------------------------------------------------- child: the real server
async function serve(backend: 'native' | 'wasm') {
  const { RELAXED_AUTH_LIMITS, RELAXED_LIMIT } = await import('../src/test/relaxed-limits.js');
  const { createCodeRunner } = await import('../src/modules/run-code/runner.js');
  // a throwaway database; the runner's folder (helper, precompiled headers) is kept between runs
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-run-code-'));
  mkdirSync(RUNNER_DIR, { recursive: true });
  const running = await startBenchServer(
    {
      DATA_DIR: dataDir,
      // the load generator speaks for many addresses (X-Forwarded-For from loopback)
      TRUST_PROXY: 'loopback',
    },
    {
      authRateLimits: RELAXED_AUTH_LIMITS,
      // all the load comes from one address
      guestHeartbeatLimit: RELAXED_LIMIT,
      runCodeRateLimit: RELAXED_LIMIT,
      codeRunner: createCodeRunner({
        dir: RUNNER_DIR,
        backend,
        // the load comes from one address: the fairness budget would refuse it
        slotSecondsPerMinute: 600,
        log: (message) => console.log(`[run-code] ${message}`),
      }),
    },
  );
  const stop = () =>
    void running.stop().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  // the server's own event-loop delay, apart from how busy the machine is
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  // the process's resident memory, sampled every 10 ms while asked (WebAssembly compiles)
  let rss = { idle: 0, peak: 0 };
  let rssTimer: NodeJS.Timeout | undefined;
  process.on('message', (message: string) => {
    if (message === 'rss-start') {
      rss = { idle: process.memoryUsage.rss(), peak: 0 };
      rssTimer = setInterval(() => {
        rss.peak = Math.max(rss.peak, process.memoryUsage.rss());
      }, 10);
    } else if (message === 'rss-stop') {
      clearInterval(rssTimer);
      process.send?.({ type: 'rss', ...rss } satisfies ChildMessage);
    } else if (message === 'loop-reset') {
      loop.reset();
    } else if (message === 'loop-read') {
      const toMs = (nanoseconds: number) => nanoseconds / 1e6;
      process.send?.({
        type: 'loop',
        delay: {
          p50: toMs(loop.percentile(50)),
          p99: toMs(loop.percentile(99)),
          max: toMs(loop.max),
        },
      } satisfies ChildMessage);
    }
  });
  const availability = await running.deps.codeRunner.warmUp({ prebuild: true });
  if (!availability.ok) {
    process.send?.({ type: 'unavailable', reason: availability.reason } satisfies ChildMessage);
    stop();
    return;
  }
  await running.deps.codeRunner.headersSettled();
  process.send?.({ type: 'ready', url: running.url } satisfies ChildMessage);
}

// ---------------------------------------------------------------- parent
function readLoopDelay(child: ChildProcess): Promise<LoopDelay> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'loop') {
        child.off('message', onMessage);
        resolve(message.delay);
      }
    };
    child.on('message', onMessage);
    child.send('loop-read');
  });
}

function readRss(child: ChildProcess): Promise<{ idle: number; peak: number }> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'rss') {
        child.off('message', onMessage);
        resolve({ idle: message.idle, peak: message.peak });
      }
    };
    child.on('message', onMessage);
    child.send('rss-stop');
  });
}

function startServerChild(
  backend: 'native' | 'wasm',
): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', backend], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        resolve({ child, url: message.url });
      } else if (message.type === 'unavailable') {
        reject(new Error(`the runner is unavailable: ${message.reason}`));
      }
    });
  });
}

const unique = (source: string) => `${source}// ${randomBytes(8).toString('hex')}\n`;

async function postRunCode(url: string, code: string, address = '127.0.0.1') {
  const response = await fetch(`${url}/run-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ code }),
  });
  return { status: response.status, body: (await response.json()) as { output?: string } };
}

async function timeEndpoint(url: string): Promise<number> {
  return timeSource(url, unique(HELLO));
}

async function timeSource(url: string, source: string): Promise<number> {
  const started = performance.now();
  const { status, body } = await postRunCode(url, source);
  const elapsed = performance.now() - started;
  if (status !== 200 || body.output !== 'Hello, World!\n') {
    throw new Error(`unexpected answer ${status} ${JSON.stringify(body)}`);
  }
  return elapsed;
}

/** `g++ <the runner's flags> main.cpp -o a.out && ./a.out` in a fresh folder, as a person would. */
async function timeBareGpp(flags: readonly string[]): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-gpp-'));
  writeFileSync(path.join(dir, 'main.cpp'), unique(HELLO));
  const started = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('sh', ['-c', `g++ ${flags.join(' ')} main.cpp -o a.out && ./a.out`], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const elapsed = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  if (output !== 'Hello, World!\n') {
    throw new Error(`bare g++ printed ${JSON.stringify(output)}`);
  }
  return elapsed;
}

async function heartbeatLatencies(url: string, seconds: number): Promise<number[]> {
  const samples: number[] = [];
  const interval = 1000 / HEARTBEAT_RATE;
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    const started = performance.now();
    const response = await fetch(`${url}/api/anonymous-heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPage: '/Tutorials',
        visitorId: `bench_guest_${String(n++ % 100).padStart(8, '0')}`,
      }),
    });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(`heartbeat answered ${response.status}`);
    }
    samples.push(elapsed);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, interval - elapsed)));
  }
  return samples;
}

/**
 * Child process: keeps every slot and the waiting list full of ~1 s CPU-bound programs until
 * told to stop (its own process, so its fetches do not delay the heartbeats being measured).
 */
async function saturate(url: string) {
  const busy = `#include <cstdio>
#include <ctime>
int main() {
  volatile unsigned long spins = 0;
  while (std::clock() < CLOCKS_PER_SEC) { spins = spins + 1; }
  std::printf("%lu\\n", static_cast<unsigned long>(spins));
}
`;
  let isStopped = false;
  const counts = { ran: 0, refused: 0 };
  process.once('message', () => {
    isStopped = true;
  });
  // the queue holds cores + 4 × cores; two more senders keep it full and exercise the 429; each
  // sender is an address of its own (one address may have one run going and one waiting)
  const senders = Array.from({ length: availableParallelism() * 5 + 2 }, async (_, index) => {
    while (!isStopped) {
      const { status } = await postRunCode(url, unique(busy), `10.0.0.${index + 1}`);
      if (status === 200) {
        counts.ran += 1;
      } else if (status === 429) {
        counts.refused += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } else {
        throw new Error(`run-code answered ${status} under load`);
      }
    }
  });
  await Promise.all(senders);
  process.send?.(counts);
  process.disconnect();
}

function startSaturating(url: string) {
  const child = fork(fileURLToPath(import.meta.url), ['saturate', url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    stop(): Promise<{ ran: number; refused: number }> {
      return new Promise((resolve) => {
        child.once('message', (counts: { ran: number; refused: number }) => resolve(counts));
        child.send('stop');
      });
    },
  };
}

/** Cached rerun latencies of one source (after its first run). */
async function timeCached(url: string): Promise<number[]> {
  const cachedSource = unique(HELLO);
  await postRunCode(url, cachedSource);
  const cached: number[] = [];
  for (let i = 0; i < CACHED_RUNS; i++) {
    const started = performance.now();
    const { status } = await postRunCode(url, cachedSource);
    cached.push(performance.now() - started);
    if (status !== 200) {
      throw new Error(`cached rerun answered ${status}`);
    }
  }
  return cached;
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const MiB = 1024 * 1024;

async function wasmBench(nativeHelloP50: number | undefined) {
  console.log('');
  console.log('--- Clang in WebAssembly (RUN_CODE_BACKEND=wasm)');
  const { child, url } = await startServerChild('wasm');
  try {
    // the warm-up (six compiles and the <iostream> header) ran before ready; one more to settle
    await timeEndpoint(url);
    const hello: number[] = [];
    for (let round = 0; round < WASM_ROUNDS; round++) {
      hello.push(await timeEndpoint(url));
    }
    const cached = await timeCached(url);
    // peak memory with 1, then 2 compiles at once (a larger program than hello, so the compile
    // dominates; every source is new, so each is compiled)
    const heavy = `#include <iostream>
#include <map>
#include <string>
#include <vector>
int main() { std::map<std::string, std::vector<int>> m; m["a"].push_back(1); std::cout << m.size() << std::endl; }
`;
    const memory: Array<{ concurrent: number; perCompile: number; peak: number; idle: number }> =
      [];
    for (const concurrent of [1, 2]) {
      child.send('rss-start');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all(
        Array.from({ length: concurrent }, () =>
          postRunCode(url, unique(heavy)).then(({ status, body }) => {
            if (status !== 200 || body.output !== '1\n') {
              throw new Error(`unexpected answer ${status} ${JSON.stringify(body)}`);
            }
          }),
        ),
      );
      const { idle, peak } = await readRss(child);
      memory.push({ concurrent, idle, peak, perCompile: (peak - idle) / concurrent });
    }
    const h = summarize(hello);
    const c = summarize(cached);
    console.log('');
    printTable([
      ['measure (wasm)', 'p50', 'p95', 'p99', 'max', 'n'],
      [
        'hello world via POST /run-code',
        ms(h.p50),
        ms(h.p95),
        ms(h.p99),
        ms(h.max),
        String(h.count),
      ],
      ['cached rerun', ms(c.p50), ms(c.p95), ms(c.p99), ms(c.max), String(c.count)],
    ]);
    console.log('');
    printTable([
      ['concurrent compiles', 'idle RSS', 'peak RSS', 'peak above idle per compile'],
      ...memory.map((row) => [
        String(row.concurrent),
        `${(row.idle / MiB).toFixed(0)} MB`,
        `${(row.peak / MiB).toFixed(0)} MB`,
        `${(row.perCompile / MiB).toFixed(0)} MB`,
      ]),
    ]);
    console.log('');
    if (nativeHelloP50 !== undefined) {
      const ratio = h.p50 / nativeHelloP50;
      console.log(
        `goal wasm warm compile+run ≤ 3× native: ${verdict(ratio <= 3)} (${ratio.toFixed(2)}×: ${ms(h.p50)} vs ${ms(nativeHelloP50)})`,
      );
    }
    console.log(`goal wasm cached rerun ≤ 20 ms: ${verdict(c.p99 <= 20)} (p99 ${ms(c.p99)})`);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  console.log(
    `C++ runner benchmark: ${availableParallelism()} cores, ${ROUNDS} rounds native, ${WASM_ROUNDS} WebAssembly; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  let nativeHelloP50: number | undefined;
  try {
    nativeHelloP50 = await nativeBench();
  } catch (error) {
    console.log(
      `native backend skipped: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  await wasmBench(nativeHelloP50);
  console.log(
    `load average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
}

async function nativeBench(): Promise<number> {
  const { COMPILE_FLAGS } = await import('../src/modules/run-code/sandbox.js');
  console.log('--- native sandbox (RUN_CODE_BACKEND=native)');
  const { child, url } = await startServerChild('native');
  try {
    // warm both paths once (page cache, the endpoint's first connection)
    await timeBareGpp(COMPILE_FLAGS);
    await timeEndpoint(url);

    const endpoint: number[] = [];
    const bare: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let endpointTime: number;
      let bareTime: number;
      if (round % 2 === 0) {
        endpointTime = await timeEndpoint(url);
        bareTime = await timeBareGpp(COMPILE_FLAGS);
      } else {
        bareTime = await timeBareGpp(COMPILE_FLAGS);
        endpointTime = await timeEndpoint(url);
      }
      endpoint.push(endpointTime);
      bare.push(bareTime);
      ratios.push(endpointTime / bareTime);
    }

    const cached = await timeCached(url);

    child.send('loop-reset');
    const idleHeartbeats = await heartbeatLatencies(url, HEARTBEAT_SECONDS / 2);
    const idleLoop = await readLoopDelay(child);
    const load = startSaturating(url);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    child.send('loop-reset');
    const busyHeartbeats = await heartbeatLatencies(url, HEARTBEAT_SECONDS);
    const busyLoop = await readLoopDelay(child);
    const loadCounts = await load.stop();

    const e = summarize(endpoint);
    const b = summarize(bare);
    const r = summarize(ratios);
    const c = summarize(cached);
    const idle = summarize(idleHeartbeats);
    const busy = summarize(busyHeartbeats);
    console.log('');
    printTable([
      ['measure', 'p50', 'p95', 'p99', 'max', 'n'],
      [
        'hello world via POST /run-code',
        ms(e.p50),
        ms(e.p95),
        ms(e.p99),
        ms(e.max),
        String(e.count),
      ],
      ['bare g++ + ./a.out', ms(b.p50), ms(b.p95), ms(b.p99), ms(b.max), String(b.count)],
      ['cached rerun', ms(c.p50), ms(c.p95), ms(c.p99), ms(c.max), String(c.count)],
      [
        'heartbeat, runner idle',
        ms(idle.p50),
        ms(idle.p95),
        ms(idle.p99),
        ms(idle.max),
        String(idle.count),
      ],
      [
        'heartbeat, runner queue full',
        ms(busy.p50),
        ms(busy.p95),
        ms(busy.p99),
        ms(busy.max),
        String(busy.count),
      ],
    ]);
    console.log('');
    printTable([
      ['server event-loop delay', 'p50', 'p99', 'max'],
      ['runner idle', ms(idleLoop.p50), ms(idleLoop.p99), ms(idleLoop.max)],
      ['runner queue full', ms(busyLoop.p50), ms(busyLoop.p99), ms(busyLoop.max)],
    ]);
    console.log('');
    console.log(
      `endpoint / bare g++: median ${r.p50.toFixed(2)}× (per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
    );
    console.log(
      `under load: ${loadCounts.ran} programs ran, ${loadCounts.refused} submissions got 429`,
    );
    console.log('');
    console.log(`goal ≤ 0.8× bare g++: ${verdict(r.p50 <= 0.8)} (${r.p50.toFixed(2)}×)`);
    console.log(`goal cached rerun ≤ 20 ms: ${verdict(c.p99 <= 20)} (p99 ${ms(c.p99)})`);
    console.log(
      `goal heartbeat p99 ≤ 25 ms with the queue full: ${verdict(busy.p99 <= 25)} (${ms(busy.p99)})`,
    );
    return e.p50;
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[2] === 'serve') {
  void serve(process.argv[3] === 'wasm' ? 'wasm' : 'native');
} else if (process.argv[2] === 'saturate') {
  void saturate(process.argv[3] ?? '');
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
