/**
 * Rooms for any game (issue 38) under load: N rooms × 4 players on the /rooms namespace.
 *
 *   npm run bench:rooms                                   # one process, 1,000 rooms
 *   BENCH_ROOMS=200 npm run bench:rooms
 *   DATABASE_URL=postgres://… BENCH_REDIS_URL=redis://… npm run bench:rooms   # + two processes
 *
 * Per set-up (one server process; then, with PostgreSQL and Redis, two processes sharing a
 * scratch database and Redis, two players of each room on each):
 *   1. memory per room: the server child's heap and rss (after forced GC) with every socket
 *      connected, before and after the rooms are made and filled, divided by N;
 *   2. relay latency between two players of one room (a probe every 20 ms, send → receive on
 *      this process's clock) while every player of the other N − 1 rooms (bench/rooms-bots.ts,
 *      a child process of their own) sends BENCH_RATE messages a second (default 0.25: 1,000
 *      messages in, 3,000 deliveries a second at 1,000 rooms), p50/p99;
 *   3. the same while the others ask to send BENCH_BURST_RATE a second each (default 25, under
 *      the rooms' limit of 30): messages relayed per second (deliveries / 3) and the server's
 *      CPU. Bots and server share the machine (2 cores here): when the bots cannot take more,
 *      the server's CPU share says how far it was from its own limit.
 * Players are guests (the game's room settings allow them for the run), so no sign-in costs.
 * Bounded by BENCH_TIME_LIMIT_MS (default 6 min); loopback only.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import type { ChildMeasurement, ChildMessage, ParentMessage } from './ipc.js';
import {
  type BotsCommand,
  type BotsReply,
  connectAll,
  fillRooms,
  PLAYERS,
  type Player,
} from './rooms-bots.js';
import {
  createScratchDatabase,
  int,
  kib,
  login,
  ms,
  printTable,
  type ScratchDatabase,
  summarize,
} from './lib.js';

const ROOMS = Number(process.env.BENCH_ROOMS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 0.25);
/** The probe's interval: two players of the first room, within the load. */
const PROBE_MS = 20;
const BURST_RATE = Number(process.env.BENCH_BURST_RATE ?? 25);
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? 360_000);
/** A built-in game open to everyone (the live games refuse guests whatever their settings). */
const GAME_ID = 'TopDownRogueLike';
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password' };
const GOAL_P99_MS = 25;

const here = path.dirname(fileURLToPath(import.meta.url));

// ---- server children ----------------------------------------------------------------------------

interface ServerChild {
  child: ChildProcess;
  url: string;
}

const children = new Set<ChildProcess>();
const scratchDatabases = new Set<ScratchDatabase>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

function startChild(env: Record<string, string | undefined>): Promise<ServerChild> {
  const child = fork(path.join(here, 'serve.ts'), [], {
    cwd: path.resolve(here, '..'),
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('server child did not start in 120 s')),
      120_000,
    );
    child.once('exit', (code) => reject(new Error(`server child exited (${code}) at startup`)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({ child, url: message.url });
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`server child failed: ${message.error}`));
      }
    });
  });
}

let nextRequest = 1;
function measure(server: ServerChild, reset = false): Promise<ChildMeasurement> {
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no measurement in 20 s')), 20_000);
    const listener = (message: ChildMessage) => {
      if (message.type === 'measure' && message.id === id) {
        clearTimeout(timer);
        server.child.off('message', listener);
        resolve(message.measurement);
      }
    };
    server.child.on('message', listener);
    server.child.send({ type: 'measure', id, reset } satisfies ParentMessage);
  });
}

async function stopChild({ child }: ServerChild): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ type: 'stop' } satisfies ParentMessage);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

async function abort(code: number): Promise<never> {
  children.forEach((child) => child.kill('SIGKILL'));
  await Promise.all([...scratchDatabases].map((scratch) => scratch.drop().catch(() => undefined)));
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void abort(130);
  });
}
setTimeout(() => {
  console.error(`time limit (${TIME_LIMIT_MS / 1000} s) reached: stopping`);
  void abort(1);
}, TIME_LIMIT_MS).unref();

// ---- players ------------------------------------------------------------------------------------

// ---- a set-up -----------------------------------------------------------------------------------

async function allowGuests(url: string): Promise<void> {
  const cookie = await login(url, ADMIN.username, ADMIN.password);
  const response = await fetch(`${url}/api/admin/games/${GAME_ID}/rooms`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ guests: true, chat: true, graceSeconds: 20, maxPlayers: PLAYERS }),
  });
  if (response.status !== 200) {
    throw new Error(`room settings: ${response.status} ${await response.text()}`);
  }
}

/** The bots' child process (bench/rooms-bots.ts): the background rooms. */
function startBots() {
  const child = fork(path.join(here, 'rooms-bots.ts'), [], {
    cwd: path.resolve(here, '..'),
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_ROOMS_BOTS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  const ask = <T extends BotsReply['type']>(command: BotsCommand, answer: T) =>
    new Promise<Extract<BotsReply, { type: T }>>((resolve, reject) => {
      const listener = (message: BotsReply) => {
        if (message.type === 'failed') {
          child.off('message', listener);
          reject(new Error(`bots: ${message.error}`));
        } else if (message.type === answer) {
          child.off('message', listener);
          resolve(message as Extract<BotsReply, { type: T }>);
        }
      };
      child.on('message', listener);
      child.send(command);
    });
  return {
    ask,
    stop() {
      child.send({ type: 'stop' } satisfies BotsCommand);
      children.delete(child);
    },
  };
}

/** A stamped probe every PROBE_MS from one player; the other records send → receive. */
async function probe(room: Player[], seconds: number) {
  const [prober, listener] = room;
  if (!prober || !listener) {
    throw new Error('no probe room');
  }
  const latencies: number[] = [];
  // the first second warms up (JIT, buffers): not counted
  const warmUntil = performance.now() + 1000;
  const record = (payload: { type: string; data: unknown }) => {
    if (payload.type === 'probe' && typeof payload.data === 'number' && payload.data > warmUntil) {
      latencies.push(performance.now() - payload.data);
    }
  };
  listener.socket.on('room:message', record);
  const timer = setInterval(
    () =>
      prober.socket.emit('room:send', { type: 'probe', data: performance.now() }, () => undefined),
    PROBE_MS,
  );
  await sleep(seconds * 1000);
  clearInterval(timer);
  await sleep(200);
  listener.socket.off('room:message', record);
  return summarize(latencies);
}

async function run(label: string, servers: ServerChild[]) {
  const [first] = servers;
  if (!first) {
    throw new Error('no server');
  }
  await allowGuests(first.url);
  // the other process reads the catalogue again through the bus
  await sleep(1000);
  const urls = servers.map((server) => server.url);
  const bots = startBots();
  try {
    await bots.ask({ type: 'connect', urls, rooms: ROOMS - 1, gameId: GAME_ID }, 'connected');
    const [probeSockets] = await connectAll(urls, 1, GAME_ID);
    const before = await Promise.all(servers.map((server) => measure(server)));
    const started = performance.now();
    await bots.ask({ type: 'fill' }, 'filled');
    const [probeRoom = []] = await fillRooms(probeSockets ? [probeSockets] : []);
    const fillSeconds = (performance.now() - started) / 1000;
    const after = await Promise.all(servers.map((server) => measure(server, true)));
    const heap = after.reduce(
      (sum, m, index) => sum + m.heapUsed - (before[index]?.heapUsed ?? 0),
      0,
    );
    const rss = after.reduce((sum, m, index) => sum + m.rss - (before[index]?.rss ?? 0), 0);

    const phase = async (perSecond: number) => {
      const [latencies, load] = await Promise.all([
        probe(probeRoom, SECONDS),
        bots.ask({ type: 'load', perSecond, seconds: SECONDS }, 'loaded'),
      ]);
      const cpu = await Promise.all(servers.map((server) => measure(server, true)));
      return { latencies, load, cpu };
    };
    const steady = await phase(RATE);
    const burst = await phase(BURST_RATE);
    probeRoom.forEach(({ socket }) => socket.disconnect());

    const cpuShare = (list: ChildMeasurement[]) =>
      list.map((m) => `${((m.cpuMs / m.wallMs) * 100).toFixed(0)}%`).join(' + ');
    const relayed = ({ load }: typeof steady) =>
      int(load.deliveries / (PLAYERS - 1) / load.elapsed);
    console.log(
      `\n${label}: ${int(ROOMS)} rooms × ${PLAYERS} players (made and filled in ${fillSeconds.toFixed(1)} s)`,
    );
    printTable([
      ['figure', 'value'],
      ['memory per room (heap)', kib(heap / ROOMS)],
      ['memory per room (rss)', kib(rss / ROOMS)],
      [`relay latency p50 (others at ${RATE}/s per player)`, ms(steady.latencies.p50)],
      [`relay latency p99 (goal ≤ ${GOAL_P99_MS} ms)`, ms(steady.latencies.p99)],
      ['messages relayed per second then', relayed(steady)],
      ['server CPU then', cpuShare(steady.cpu)],
      [`relay latency p50 (others asking ${BURST_RATE}/s per player)`, ms(burst.latencies.p50)],
      ['relay latency p99 then', ms(burst.latencies.p99)],
      ['messages relayed per second then', relayed(burst)],
      ['refused (rate limit)', int(burst.load.refused + steady.load.refused)],
      ['server CPU then', cpuShare(burst.cpu)],
    ]);
  } finally {
    bots.stop();
  }
}

async function main() {
  const { DATABASE_URL: databaseUrl, ...env } = process.env;
  const one = await startChild({ ...env, BENCH_REDIS_URL: undefined });
  try {
    await run('one process (rooms in memory)', [one]);
  } finally {
    await stopChild(one);
  }
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    console.log('\ntwo processes: skipped (set DATABASE_URL and BENCH_REDIS_URL)');
    return;
  }
  const scratch = await createScratchDatabase(databaseUrl, 'bench_rooms');
  scratchDatabases.add(scratch);
  const shared = {
    ...env,
    DATABASE_URL: scratch.url,
    BENCH_REDIS_URL: redisUrl,
    REDIS_PREFIX: `bench-rooms-${Date.now().toString(36)}`,
  };
  const a = await startChild(shared);
  const b = await startChild(shared);
  try {
    await run('two processes through Redis (2 players of each room on each)', [a, b]);
  } finally {
    await Promise.all([stopChild(a), stopChild(b)]);
    await scratch.drop();
    scratchDatabases.delete(scratch);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    void abort(1);
  },
);
