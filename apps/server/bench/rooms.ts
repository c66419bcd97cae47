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
 *   2. relay latency: every player sends a message every 1/BENCH_RATE s (default 1 per second)
 *      stamped with the sending time; each receiver in the room records send → receive (one
 *      clock: the bots share this process), p50/p99 over BENCH_SECONDS;
 *   3. messages per second: every player sends as fast as the room's rate limit allows
 *      (BENCH_BURST_RATE, default 25 a second) for BENCH_SECONDS; messages relayed per second
 *      (deliveries / 3) and the server's CPU.
 * Players are guests (the game's room settings allow them for the run), so no sign-in costs.
 * Bounded by BENCH_TIME_LIMIT_MS (default 6 min); loopback only.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { io, type Socket } from 'socket.io-client';

import {
  ROOMS_NAMESPACE,
  type RoomsClientToServerEvents,
  type RoomsServerToClientEvents,
} from '@portfolio/types/rooms';

import type { ChildMeasurement, ChildMessage, ParentMessage } from './ipc.js';
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
const PLAYERS = 4;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 1);
const BURST_RATE = Number(process.env.BENCH_BURST_RATE ?? 25);
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? 360_000);
const CONNECT_BATCH = 100;
/** A built-in game open to everyone (the live games refuse guests whatever their settings). */
const GAME_ID = 'TopDownRogueLike';
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password' };
const GOAL_P99_MS = 25;

const here = path.dirname(fileURLToPath(import.meta.url));

type RoomsSocket = Socket<RoomsServerToClientEvents, RoomsClientToServerEvents>;

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

interface Player {
  socket: RoomsSocket;
  playerId: string;
}

function ack<E extends keyof RoomsClientToServerEvents>(
  socket: RoomsSocket,
  event: E,
  request: Parameters<RoomsClientToServerEvents[E]>[0],
): Promise<Parameters<Parameters<RoomsClientToServerEvents[E]>[1]>[0]> {
  const emit = socket.emit.bind(socket) as (
    name: string,
    body: unknown,
    done: (answer: never) => void,
  ) => void;
  return new Promise((resolve) => emit(event, request, resolve));
}

async function connect(url: string): Promise<RoomsSocket> {
  const socket: RoomsSocket = io(`${url}${ROOMS_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { gameId: GAME_ID },
    forceNew: true,
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Connects rooms × 4 guests, in batches; `urlOf(seat)` says which process a seat talks to. */
async function connectAll(urlOf: (seat: number) => string): Promise<RoomsSocket[][]> {
  const rooms: RoomsSocket[][] = [];
  for (let start = 0; start < ROOMS; start += CONNECT_BATCH / PLAYERS) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(CONNECT_BATCH / PLAYERS, ROOMS - start) }, () =>
        Promise.all(Array.from({ length: PLAYERS }, (_, seat) => connect(urlOf(seat)))),
      ),
    );
    rooms.push(...batch);
  }
  return rooms;
}

/** The first socket of each room creates it; the others join by code. */
async function fillRooms(sockets: RoomsSocket[][]): Promise<Player[][]> {
  const rooms: Player[][] = [];
  for (let start = 0; start < sockets.length; start += 25) {
    rooms.push(
      ...(await Promise.all(
        sockets.slice(start, start + 25).map(async ([first, ...others]) => {
          if (!first) {
            throw new Error('empty room');
          }
          const created = await ack(first, 'room:create', { private: true, maxPlayers: PLAYERS });
          if (!created.ok) {
            throw new Error(`create refused: ${created.error.message}`);
          }
          const players: Player[] = [{ socket: first, playerId: created.seat.playerId }];
          for (const socket of others) {
            const joined = await ack(socket, 'room:join', { code: created.room.code });
            if (!joined.ok) {
              throw new Error(`join refused: ${joined.error.message}`);
            }
            players.push({ socket, playerId: joined.seat.playerId });
          }
          return players;
        }),
      )),
    );
  }
  return rooms;
}

/** Every player sends `perSecond` stamped messages for `seconds`; latencies and deliveries. */
async function load(rooms: Player[][], perSecond: number, seconds: number) {
  const latencies: number[] = [];
  let deliveries = 0;
  let refused = 0;
  const players = rooms.flat();
  const warmUntil = performance.now() + 1000;
  const listeners = players.map(({ socket }) => {
    const listener = (payload: { type: string; data: unknown }) => {
      deliveries += 1;
      // the first second warms up (JIT, buffers): not counted
      if (typeof payload.data === 'number' && payload.data > warmUntil) {
        latencies.push(performance.now() - payload.data);
      }
    };
    socket.on('room:message', listener);
    return () => socket.off('room:message', listener);
  });
  const intervalMs = 1000 / perSecond;
  // one timer per player: a random first delay spreads the sends, then every intervalMs
  const handles = players.map(({ socket }) => {
    const emit = socket.emit.bind(socket) as (
      name: string,
      body: unknown,
      done: (answer: { ok: boolean }) => void,
    ) => void;
    const send = () =>
      emit('room:send', { type: 'move', data: performance.now() }, (answer) => {
        if (!answer.ok) {
          refused += 1;
        }
      });
    const handle: { timer: NodeJS.Timeout | undefined } = { timer: undefined };
    handle.timer = setTimeout(() => {
      send();
      handle.timer = setInterval(send, intervalMs);
    }, Math.random() * intervalMs);
    return handle;
  });
  const started = performance.now();
  await sleep(seconds * 1000);
  handles.forEach((handle) => {
    clearTimeout(handle.timer);
    clearInterval(handle.timer);
  });
  const elapsed = (performance.now() - started) / 1000;
  await sleep(500);
  listeners.forEach((off) => off());
  return { latencies: summarize(latencies), deliveries, refused, elapsed };
}

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

async function run(label: string, servers: ServerChild[]) {
  const [first] = servers;
  if (!first) {
    throw new Error('no server');
  }
  await allowGuests(first.url);
  // the other process reads the catalogue again through the bus
  await sleep(1000);
  const urlOf = (seat: number) =>
    (servers[seat < PLAYERS / 2 ? 0 : servers.length - 1] ?? first).url;
  const sockets = await connectAll(urlOf);
  const before = await Promise.all(servers.map((server) => measure(server)));
  const started = performance.now();
  const rooms = await fillRooms(sockets);
  const fillSeconds = (performance.now() - started) / 1000;
  const after = await Promise.all(servers.map((server) => measure(server, true)));
  const heap = after.reduce(
    (sum, m, index) => sum + m.heapUsed - (before[index]?.heapUsed ?? 0),
    0,
  );
  const rss = after.reduce((sum, m, index) => sum + m.rss - (before[index]?.rss ?? 0), 0);

  const steady = await load(rooms, RATE, SECONDS);
  const steadyCpu = await Promise.all(servers.map((server) => measure(server, true)));
  const burst = await load(rooms, BURST_RATE, SECONDS);
  const burstCpu = await Promise.all(servers.map((server) => measure(server, true)));
  sockets.flat().forEach((socket) => socket.disconnect());

  const cpuShare = (list: ChildMeasurement[]) =>
    list.map((m) => `${((m.cpuMs / m.wallMs) * 100).toFixed(0)}%`).join(' + ');
  console.log(
    `\n${label}: ${int(ROOMS)} rooms × ${PLAYERS} players (made and filled in ${fillSeconds.toFixed(1)} s)`,
  );
  printTable([
    ['figure', 'value'],
    ['memory per room (heap)', kib(heap / ROOMS)],
    ['memory per room (rss)', kib(rss / ROOMS)],
    [`relay latency p50 at ${RATE}/s per player`, ms(steady.latencies.p50)],
    [`relay latency p99 (goal ≤ ${GOAL_P99_MS} ms)`, ms(steady.latencies.p99)],
    [
      'messages relayed per second (steady)',
      int(steady.deliveries / (PLAYERS - 1) / steady.elapsed),
    ],
    ['server CPU (steady)', cpuShare(steadyCpu)],
    [
      `messages relayed per second (${BURST_RATE}/s per player asked)`,
      int(burst.deliveries / (PLAYERS - 1) / burst.elapsed),
    ],
    ['relay latency p99 then', ms(burst.latencies.p99)],
    ['refused (rate limit)', int(burst.refused + steady.refused)],
    ['server CPU (all sending)', cpuShare(burstCpu)],
  ]);
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
