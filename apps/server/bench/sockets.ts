/**
 * Socket.IO at scale: memory per connected client and the time for a presence change to reach an
 * admin, with the real server in a child process (bench/serve.ts) so the load generator's heap
 * and event loop stay out of the figures.
 *
 *   npm run bench:sockets                      # 500 then 5,000 clients, PGlite
 *   BENCH_CLIENTS=5000 BENCH_PROBES=50 npm run bench:sockets
 *   DATABASE_URL=postgres://… npm run bench:sockets  # a scratch database per run, dropped after
 *
 * Per client count N, in a fresh server:
 *   1. memory (rss, heap, external after forced GC) with one admin socket, then with N more
 *      anonymous websocket-only clients; the difference / N is the cost of one client (rss is
 *      noisy on PGlite, whose ~0.5 GB WebAssembly heap shares the process: prefer heap there);
 *   2. "idle": N sockets open, nobody else on the site; a guest heartbeat (HTTP) every 1.2 s, timed
 *      until the admin socket receives the `presence:update` that lists its page;
 *   3. "steady": every client is also an active guest sending a heartbeat every 30 s (N/30 per
 *      second over HTTP, as browsers would), and the same probes run on top. Pushes are coalesced
 *      to one a second, so here the wait for the next push slot is part of the latency.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { io, type Socket } from 'socket.io-client';

import type {
  ActiveUsersResponse,
  ClientToServerEvents,
  ServerToClientEvents,
} from '@portfolio/types';

import type { ChildMeasurement, ChildMessage, ParentMessage } from './ipc.js';
import {
  type ScratchDatabase,
  type Summary,
  createScratchDatabase,
  int,
  kib,
  login,
  mib,
  ms,
  printTable,
  summarize,
} from './lib.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const COUNTS = (process.env.BENCH_CLIENTS ?? '500,5000')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0);
const PROBES = Number(process.env.BENCH_PROBES ?? 25);
const PROBE_SPACING_MS = 1200;
const CONNECT_BATCH = 250;
const HEARTBEAT_INTERVAL_MS = 30_000;
/** Whole run, whatever happens: the script ends (and kills the child) after this. */
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? 300_000);
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password' };
const PAGES = ['/', '/games', '/games/wolfscape', '/games/rocketgame', '/about', '/pricing'];

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..');

// ---- the server child -------------------------------------------------------------------------

const children = new Set<ChildProcess>();

class ServerChild {
  private nextId = 1;
  private pending = new Map<number, (measurement: ChildMeasurement) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly database: string,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'measure') {
        this.pending.get(message.id)?.(message.measurement);
        this.pending.delete(message.id);
      }
    });
  }

  static start(env: Record<string, string> = {}): Promise<ServerChild> {
    const child = fork(path.join(here, 'serve.ts'), [], {
      cwd: serverDir,
      execArgv: ['--import', 'tsx', '--expose-gc'],
      env: {
        ...process.env,
        ...env,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('server child did not start in 60 s')),
        60_000,
      );
      child.once('exit', (code) => reject(new Error(`server child exited (${code}) at startup`)));
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(new ServerChild(child, message.url, message.database));
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`server child failed: ${message.error}`));
        }
      };
      child.on('message', onMessage);
    });
  }

  measure(reset = false): Promise<ChildMeasurement> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no measurement in 10 s')), 10_000);
      this.pending.set(id, (measurement) => {
        clearTimeout(timer);
        resolve(measurement);
      });
      this.child.send({ type: 'measure', id, reset } satisfies ParentMessage);
    });
  }

  /** Asks for a clean stop (flush, close), then kills it if that takes more than 15 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      return;
    }
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies ParentMessage);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Scratch databases not dropped yet (an interrupted run drops them on the way out). */
const scratchDatabases = new Set<ScratchDatabase>();

/** Last resort, at exit: nothing may outlive the benchmark. */
function killChildren() {
  for (const child of children) {
    child.kill('SIGKILL');
  }
}
process.on('exit', killChildren);

/** Interrupted or out of time: children stop cleanly (their temp folders go), then we exit. */
let aborting = false;
async function abort(code: number): Promise<void> {
  if (aborting) {
    return;
  }
  aborting = true;
  const exits = [...children].map(
    (child) => new Promise<void>((resolve) => child.once('exit', () => resolve())),
  );
  for (const child of children) {
    child.kill('SIGTERM');
  }
  await Promise.race([Promise.all(exits), sleep(5000)]);
  killChildren();
  await Promise.all([...scratchDatabases].map((scratch) => scratch.drop().catch(() => undefined)));
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void abort(130);
  });
}

// ---- clients ------------------------------------------------------------------------------------

function connect(url: string, headers: Record<string, string> = {}): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    extraHeaders: headers,
    // without forceNew, every io(url) would share one Manager: one connection for all "clients"
    forceNew: true,
    reconnection: false,
    timeout: 20_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.disconnect();
      reject(error);
    });
  });
}

async function connectMany(url: string, count: number): Promise<ClientSocket[]> {
  const sockets: ClientSocket[] = [];
  try {
    for (let start = 0; start < count; start += CONNECT_BATCH) {
      const size = Math.min(CONNECT_BATCH, count - start);
      const batch = await Promise.all(Array.from({ length: size }, () => connect(url)));
      sockets.push(...batch);
    }
  } catch (error) {
    sockets.forEach((socket) => socket.disconnect());
    throw error;
  }
  return sockets;
}

/** The next `presence:update` that satisfies `accept`, stamped on arrival. */
function nextPresence(
  admin: ClientSocket,
  accept: (payload: ActiveUsersResponse) => boolean,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const listener = (payload: ActiveUsersResponse) => {
      if (accept(payload)) {
        const at = performance.now();
        clearTimeout(timer);
        admin.off('presence:update', listener);
        resolve(at);
      }
    };
    const timer = setTimeout(() => {
      admin.off('presence:update', listener);
      reject(new Error(`no matching presence:update within ${timeoutMs} ms`));
    }, timeoutMs);
    admin.on('presence:update', listener);
  });
}

async function guestHeartbeat(url: string, visitorId: string, currentPage: string) {
  const response = await fetch(`${url}/api/anonymous-heartbeat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ currentPage, visitorId }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) {
    throw new Error(`heartbeat answered ${response.status}`);
  }
}

const visitorIdOf = (index: number) => `bench-visitor-${String(index).padStart(7, '0')}`;
const pageOf = (index: number) => PAGES[index % PAGES.length] ?? '/';

/** Every client's heartbeat once, `concurrency` at a time; returns heartbeats per second. */
async function heartbeatAll(url: string, count: number, concurrency = 50): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        await guestHeartbeat(url, visitorIdOf(index), pageOf(index));
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** Each of `count` visitors heartbeats every 30 s, spread evenly, until stopped. */
function startBackgroundHeartbeats(url: string, count: number) {
  const perTick = (count / HEARTBEAT_INTERVAL_MS) * 100;
  let credit = 0;
  let cursor = 0;
  const inFlight = new Set<Promise<void>>();
  const counters = { sent: 0, failed: 0, skipped: 0 };
  const timer = setInterval(() => {
    credit += perTick;
    while (credit >= 1) {
      credit--;
      if (inFlight.size >= 200) {
        counters.skipped++;
        continue;
      }
      const index = cursor++ % count;
      counters.sent++;
      const request = guestHeartbeat(url, visitorIdOf(index), pageOf(index))
        .catch(() => {
          counters.failed++;
        })
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  }, 100);
  return {
    counters,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

interface ProbeResults {
  pushMs: Summary;
  httpMs: Summary;
  missed: number;
}

/** Guest heartbeats with a page no one else is on, timed until the admin sees that page. */
async function runProbes(url: string, admin: ClientSocket, label: string): Promise<ProbeResults> {
  const push: number[] = [];
  const http: number[] = [];
  let missed = 0;
  for (let index = 0; index < PROBES; index++) {
    const started = performance.now();
    const page = `/bench-probe/${label}/${index}`;
    const seen = nextPresence(
      admin,
      (payload) => (payload.anonymous.currentPages[page] ?? 0) > 0,
      5000,
    );
    try {
      await guestHeartbeat(url, randomBytes(12).toString('base64url'), page);
      http.push(performance.now() - started);
      push.push((await seen) - started);
    } catch (error) {
      missed++;
      seen.catch(() => undefined);
      console.warn(
        `  probe ${label}/${index}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await sleep(Math.max(0, started + PROBE_SPACING_MS - performance.now()));
  }
  return { pushMs: summarize(push), httpMs: summarize(http), missed };
}

// ---- one run ------------------------------------------------------------------------------------

interface RunResult {
  clients: number;
  database: string;
  connectSeconds: number;
  before: ChildMeasurement;
  after: ChildMeasurement;
  withPresence: ChildMeasurement;
  idle: ProbeResults;
  idleLoad: ChildMeasurement;
  steady: ProbeResults;
  steadyLoad: ChildMeasurement;
  burstRate: number;
  background: { sent: number; failed: number; skipped: number };
}

async function run(count: number): Promise<RunResult> {
  console.log(`\n== ${int(count)} clients ==`);
  // PostgreSQL: a fresh database per run, never the one DATABASE_URL names
  const scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'bench_sockets')
    : undefined;
  if (scratch) {
    scratchDatabases.add(scratch);
  }
  let server: ServerChild;
  try {
    server = await ServerChild.start(scratch ? { DATABASE_URL: scratch.url } : {});
  } catch (error) {
    await scratch?.drop();
    throw error;
  }
  const sockets: ClientSocket[] = [];
  let admin: ClientSocket | undefined;
  try {
    const cookie = await login(server.url, ADMIN.username, ADMIN.password);
    admin = await connect(server.url, { cookie });
    await sleep(1000);
    const before = await server.measure();
    console.log(
      `  baseline: rss ${mib(before.rss)}, heap ${mib(before.heapUsed)} (${before.clients} socket)`,
    );

    const connectStarted = performance.now();
    sockets.push(...(await connectMany(server.url, count)));
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    console.log(`  connected ${int(count)} clients in ${connectSeconds.toFixed(1)} s`);
    await sleep(1000);
    const after = await server.measure(true);
    console.log(
      `  with clients: rss ${mib(after.rss)}, heap ${mib(after.heapUsed)} (${int(after.clients)} sockets)`,
    );
    if (after.clients !== count + 1) {
      throw new Error(`server holds ${after.clients} sockets, expected ${count + 1}`);
    }

    console.log(`  idle: ${PROBES} probes`);
    const idle = await runProbes(server.url, admin, `idle-${count}`);
    const idleLoad = await server.measure(true);

    const burstRate = await heartbeatAll(server.url, count);
    console.log(
      `  every client heartbeated once (${int(burstRate)} heartbeats/s at 50 concurrent)`,
    );
    const background = startBackgroundHeartbeats(server.url, count);
    await sleep(2000);
    await server.measure(true);
    console.log(
      `  steady: ${PROBES} probes with ${int(count / 30)} heartbeats/s in the background`,
    );
    const steady = await runProbes(server.url, admin, `steady-${count}`);
    const steadyLoad = await server.measure(true);
    await background.stop();
    const withPresence = await server.measure();
    return {
      clients: count,
      database: server.database,
      connectSeconds,
      before,
      after,
      withPresence,
      idle,
      idleLoad,
      steady,
      steadyLoad,
      burstRate,
      background: background.counters,
    };
  } finally {
    admin?.disconnect();
    sockets.forEach((socket) => socket.disconnect());
    await server.stop();
    if (scratch) {
      await scratch.drop();
      scratchDatabases.delete(scratch);
    }
  }
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  const limit = setTimeout(() => {
    console.error(`time limit of ${TIME_LIMIT_MS / 1000} s reached: stopping`);
    void abort(1);
  }, TIME_LIMIT_MS);
  limit.unref();
  console.log(
    `sockets benchmark: ${COUNTS.map(int).join(', ')} clients, ${PROBES} probes per phase; ` +
      `${os.cpus().length} cores, ${mib(os.totalmem())} RAM, Node ${process.version}; ` +
      `database ${process.env.DATABASE_URL ? 'PostgreSQL (a scratch database per run)' : 'PGlite (temporary)'}`,
  );
  const results: RunResult[] = [];
  for (const count of COUNTS) {
    results.push(await run(count));
  }
  clearTimeout(limit);
  console.log(
    `\nload average (1/5/15 min) at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );

  console.log('\nMemory of the server process per connected client (after forced GC)');
  printTable([
    [
      'clients',
      'connect',
      'rss before',
      'rss after',
      'rss/client',
      'heap/client',
      'external/client',
      'heap/active guest',
    ],
    ...results.map((result) => [
      int(result.clients),
      `${result.connectSeconds.toFixed(1)} s`,
      mib(result.before.rss),
      mib(result.after.rss),
      kib((result.after.rss - result.before.rss) / result.clients),
      kib((result.after.heapUsed - result.before.heapUsed) / result.clients),
      kib((result.after.external - result.before.external) / result.clients),
      kib((result.withPresence.heapUsed - result.after.heapUsed) / result.clients),
    ]),
  ]);

  console.log('\nGuest heartbeat sent → admin socket receives the presence:update listing it');
  const latencyRow = (result: RunResult, phase: 'idle' | 'steady') => {
    const probes = result[phase];
    const load = phase === 'idle' ? result.idleLoad : result.steadyLoad;
    return [
      `${int(result.clients)} ${phase}`,
      ms(probes.pushMs.p50),
      ms(probes.pushMs.p95),
      ms(probes.pushMs.max),
      ms(probes.httpMs.p50),
      String(probes.missed),
      `${((load.cpuMs / load.wallMs) * 100).toFixed(0)} %`,
      ms(load.loopDelayP99Ms),
    ];
  };
  printTable([
    ['clients / phase', 'p50', 'p95', 'max', 'http p50', 'missed', 'server cpu', 'loop delay p99'],
    ...results.flatMap((result) => [latencyRow(result, 'idle'), latencyRow(result, 'steady')]),
  ]);
  for (const result of results) {
    console.log(
      `  ${int(result.clients)}: one heartbeat per client ${int(result.burstRate)}/s (load-generator bound); ` +
        `background heartbeats sent ${int(result.background.sent)}, failed ${result.background.failed}, ` +
        `skipped ${result.background.skipped}; database ${result.database}`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('sockets benchmark failed:', error);
    void abort(1);
  },
);
