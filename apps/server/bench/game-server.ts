/**
 * The in-process multiplayer game servers under load: N bot clients across the rooms of one game
 * on one server process (bench/serve.ts in a child, so the bots' event loop and heap stay out of
 * the figures). For each player count it reports the tick duration (every room of the game
 * simulated and its changes emitted, p50/p99/max) and the bytes each client receives per second.
 *
 *   npm run bench:game-server                          # Rocket Game, 50 → 200 → 500 players
 *   BENCH_GAME=WolfScape npm run bench:game-server
 *   BENCH_PLAYERS=50,200,500,1000 BENCH_SECONDS=20 npm run bench:game-server
 *
 * Bots are signed in (one account, one socket per bot: a player may have several tabs) and play
 * like people: Rocket Game bots hold a new mix of thrust/turn/fire keys every 0.3–1.5 s; WolfScape
 * bots click a random tile every 2–5 s. Player counts are reached by adding bots to the same
 * server, so later counts run with rooms that filled the way real arrivals fill them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { io, type Socket } from 'socket.io-client';

import { MULTIPLAYER_NAMESPACES, ROCKET_KEYS, WOLFSCAPE_MAP } from '@portfolio/types/multiplayer';

import type { ChildMessage, GameTickMeasurement, ParentMessage } from './ipc.js';
import { int, login, ms, printTable, summarize } from './lib.js';

type Game = keyof typeof MULTIPLAYER_NAMESPACES;
const GAME: Game = process.env.BENCH_GAME === 'WolfScape' ? 'WolfScape' : 'RocketGame';
const SERVER_TYPE = GAME === 'WolfScape' ? 'wolfscape' : 'rocketGame';
const COUNTS = (process.env.BENCH_PLAYERS ?? '50,200,500')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0)
  .sort((a, b) => a - b);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_MS = 2000;
const CONNECT_BATCH = 50;
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? 300_000);
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password' };
const GOALS = { tickP99Ms: 5, bytesPerClientPerSecond: 2048 };

const here = path.dirname(fileURLToPath(import.meta.url));

// ---- the server child -------------------------------------------------------------------------

let child: ChildProcess | undefined;
process.on('exit', () => child?.kill('SIGKILL'));

function startServer(): Promise<{ url: string; database: string }> {
  child = fork(path.join(here, 'serve.ts'), [], {
    cwd: path.resolve(here, '..'),
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      // BENCH_CPU_PROF=<folder>: a CPU profile of the server child, for finding where ticks go
      ...(process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
    ],
    env: { ...process.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const started = child;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('server child did not start in 120 s')),
      120_000,
    );
    started.once('exit', (code) => reject(new Error(`server child exited (${code}) at startup`)));
    started.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({ url: message.url, database: message.database });
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`server child failed: ${message.error}`));
      }
    });
  });
}

let nextRequest = 1;
function gameTicks(): Promise<GameTickMeasurement> {
  const id = nextRequest++;
  const server = child;
  if (!server) {
    return Promise.reject(new Error('no server child'));
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no tick figures in 10 s')), 10_000);
    const listener = (message: ChildMessage) => {
      if (message.type === 'game-ticks' && message.id === id) {
        clearTimeout(timer);
        server.off('message', listener);
        resolve(message.measurement);
      }
    };
    server.on('message', listener);
    server.send({ type: 'game-ticks', id, serverType: SERVER_TYPE } satisfies ParentMessage);
  });
}

async function stopServer(): Promise<void> {
  const server = child;
  if (!server || server.exitCode !== null || server.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.send({ type: 'stop' } satisfies ParentMessage);
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    void stopServer().then(() => process.exit(130));
  });
}

// ---- bots ---------------------------------------------------------------------------------------

interface Bot {
  socket: Socket;
  /** Bytes received (WebSocket frames: header + Engine.IO packet) since the last reset. */
  bytes: number;
  timer: NodeJS.Timeout | undefined;
}

/** Size on the wire of one WebSocket frame the server sends with this payload. */
function frameBytes(payload: number): number {
  return payload + (payload < 126 ? 2 : payload < 65_536 ? 4 : 10);
}

function randomKeys(): number {
  let keys = Math.random() < 0.75 ? ROCKET_KEYS.forward : 0;
  const turn = Math.random();
  keys |= turn < 0.35 ? ROCKET_KEYS.left : turn < 0.7 ? ROCKET_KEYS.right : 0;
  return Math.random() < 0.4 ? keys | ROCKET_KEYS.shoot : keys;
}

function play(bot: Bot) {
  const again = () => {
    if (GAME === 'RocketGame') {
      bot.socket.emit('input', randomKeys());
      bot.timer = setTimeout(again, 300 + Math.random() * 1200);
    } else {
      bot.socket.emit('move', {
        x: Math.floor(Math.random() * WOLFSCAPE_MAP.width),
        y: Math.floor(Math.random() * WOLFSCAPE_MAP.height),
      });
      bot.timer = setTimeout(again, 2000 + Math.random() * 3000);
    }
  };
  bot.timer = setTimeout(again, Math.random() * 1000);
}

function connectBot(url: string, cookie: string): Promise<Bot> {
  const socket = io(url + MULTIPLAYER_NAMESPACES[GAME], {
    transports: ['websocket'],
    extraHeaders: { cookie },
    forceNew: true,
    reconnection: false,
    timeout: 20_000,
  });
  const bot: Bot = { socket, bytes: 0, timer: undefined };
  socket.io.on('open', () => {
    socket.io.engine.on('packet', (packet: { data?: unknown }) => {
      const data = packet.data;
      const size =
        typeof data === 'string'
          ? Buffer.byteLength(data)
          : data instanceof ArrayBuffer
            ? data.byteLength
            : 0;
      // the Engine.IO packet type is one more byte
      bot.bytes += frameBytes(size + 1);
    });
  });
  return new Promise((resolve, reject) => {
    socket.once('welcome', () => {
      play(bot);
      resolve(bot);
    });
    socket.once('connect_error', (error) => {
      socket.disconnect();
      reject(error);
    });
  });
}

// ---- main ---------------------------------------------------------------------------------------

interface Row {
  players: number;
  rooms: number;
  ticks: number;
  tick: ReturnType<typeof summarize>;
  bytesPerClient: ReturnType<typeof summarize>;
  cpu: number;
}

async function main() {
  const limit = setTimeout(() => {
    console.error(`time limit of ${TIME_LIMIT_MS / 1000} s reached: stopping`);
    void stopServer().then(() => process.exit(1));
  }, TIME_LIMIT_MS);
  limit.unref();
  console.log(
    `game-server benchmark: ${GAME}, ${COUNTS.map(int).join(' → ')} players, ${SECONDS} s each; ` +
      `${os.cpus().length} cores, Node ${process.version}`,
  );
  const server = await startServer();
  const cookie = await login(server.url, ADMIN.username, ADMIN.password);
  const bots: Bot[] = [];
  const rows: Row[] = [];
  try {
    for (const count of COUNTS) {
      while (bots.length < count) {
        const size = Math.min(CONNECT_BATCH, count - bots.length);
        bots.push(
          ...(await Promise.all(
            Array.from({ length: size }, () => connectBot(server.url, cookie)),
          )),
        );
      }
      await sleep(WARM_UP_MS);
      await gameTicks();
      bots.forEach((bot) => (bot.bytes = 0));
      const started = performance.now();
      await sleep(SECONDS * 1000);
      const figures = await gameTicks();
      const seconds = (performance.now() - started) / 1000;
      const row: Row = {
        players: count,
        rooms: Object.keys(figures.rooms).length,
        ticks: figures.durations.length,
        tick: summarize(figures.durations),
        bytesPerClient: summarize(bots.map((bot) => bot.bytes / seconds)),
        cpu: figures.cpuMs / figures.wallMs,
      };
      const disconnected = bots.filter((bot) => !bot.socket.connected).length;
      console.log(
        `  ${int(count)} players in ${row.rooms} rooms: tick p99 ${ms(row.tick.p99, 2)}, ` +
          `${int(row.bytesPerClient.mean)} B/s per client` +
          (disconnected > 0 ? ` (${disconnected} bots disconnected)` : ''),
      );
      rows.push(row);
    }
  } finally {
    bots.forEach((bot) => {
      clearTimeout(bot.timer);
      bot.socket.disconnect();
    });
    await stopServer();
  }
  clearTimeout(limit);

  console.log(`\n${GAME}: one tick = every room simulated and its changes emitted (wall time)`);
  printTable([
    [
      'players',
      'rooms',
      'ticks',
      'tick p50',
      'tick p99',
      'tick max',
      'B/s per client (mean)',
      'B/s per client (max)',
      'server cpu',
    ],
    ...rows.map((row) => [
      int(row.players),
      String(row.rooms),
      int(row.ticks),
      ms(row.tick.p50, 3),
      ms(row.tick.p99, 3),
      ms(row.tick.max, 2),
      int(row.bytesPerClient.mean),
      int(row.bytesPerClient.max),
      `${(row.cpu * 100).toFixed(0)} %`,
    ]),
  ]);
  const at200 = rows.find((row) => row.players === 200);
  if (at200) {
    console.log(
      `\ngoals at 200 players: tick p99 ${ms(at200.tick.p99, 2)} (≤ ${GOALS.tickP99Ms} ms), ` +
        `${int(at200.bytesPerClient.max)} B/s for the busiest client (≤ ${int(GOALS.bytesPerClientPerSecond)})`,
    );
  }
  console.log(
    `load average (1/5/15 min) at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('game-server benchmark failed:', error);
    void stopServer().then(() => process.exit(1));
  },
);
