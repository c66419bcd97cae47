/**
 * The real server in a child process, for benchmarks that must not share an event loop or heap
 * with their load generator. Started by bench/sockets.ts as
 * `node --import tsx --expose-gc bench/serve.ts` with an IPC channel; see bench/ipc.ts.
 *
 * Database: DATABASE_URL when set, else PGlite in a temporary DATA_DIR (deleted at exit).
 * The admin comes from ADMIN_USERNAME / ADMIN_PASSWORD, as in production. Auth rate limits are
 * relaxed; Redis is used only when BENCH_REDIS_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { RELAXED_AUTH_LIMITS, RELAXED_LIMIT } from '../src/test/relaxed-limits.js';
import type { ChildMeasurement, ChildMessage, GameTickMeasurement, ParentMessage } from './ipc.js';

function send(message: ChildMessage) {
  process.send?.(message);
}

if (!process.send) {
  console.error('bench/serve.ts is started by a benchmark (it needs an IPC channel)');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-serve-'));
let running: RunningServer | undefined;

const DELAY_RESOLUTION_MS = 10;
const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
delay.enable();
let windowStart = {
  cpu: process.cpuUsage(),
  elu: performance.eventLoopUtilization(),
  wall: performance.now(),
};

async function measure(reset: boolean): Promise<ChildMeasurement> {
  const cpu = process.cpuUsage(windowStart.cpu);
  const elu = performance.eventLoopUtilization(windowStart.elu);
  const wallMs = performance.now() - windowStart.wall;
  // the histogram records the sampling interval plus the lateness: keep the lateness
  const lateness = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - DELAY_RESOLUTION_MS);
  const loop = {
    loopDelayP50Ms: lateness(delay.percentile(50)),
    loopDelayP99Ms: lateness(delay.percentile(99)),
    loopDelayMaxMs: lateness(delay.max),
  };
  // two collections with a pause: sockets closed just before free native buffers late
  globalThis.gc?.();
  await sleep(200);
  globalThis.gc?.();
  const memory = process.memoryUsage();
  if (reset) {
    delay.reset();
    windowStart = {
      cpu: process.cpuUsage(),
      elu: performance.eventLoopUtilization(),
      wall: performance.now(),
    };
  }
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    clients: running?.realtime.io.engine.clientsCount ?? 0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    eventLoopUtilization: elu.utilization,
    ...loop,
  };
}

let gameWindow = { cpu: process.cpuUsage(), wall: performance.now() };
function measureGameTicks(serverType: string): GameTickMeasurement {
  const server = running?.deps.multiplayer.servers().get(serverType);
  const cpu = process.cpuUsage(gameWindow.cpu);
  const wallMs = performance.now() - gameWindow.wall;
  gameWindow = { cpu: process.cpuUsage(), wall: performance.now() };
  const stats = server?.takeTickStats();
  return {
    durations: stats?.durations ?? [],
    rooms: Object.fromEntries(server?.rooms() ?? []),
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
  };
}

let stopping: Promise<void> | undefined;
function stop(): Promise<void> {
  stopping ??= (async () => {
    try {
      await running?.stop();
    } catch (error) {
      console.error('[bench/serve] stop failed', error);
    }
    rmSync(dataDir, { recursive: true, force: true });
  })();
  return stopping;
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'measure') {
    void measure(message.reset ?? false).then((measurement) =>
      send({ type: 'measure', id: message.id, measurement }),
    );
  } else if (message.type === 'game-ticks') {
    send({ type: 'game-ticks', id: message.id, measurement: measureGameTicks(message.serverType) });
  } else if (message.type === 'stop') {
    void stop().then(() => {
      send({ type: 'stopped' });
      process.disconnect();
      process.exit(0);
    });
  }
});

// the benchmark died or was interrupted: never outlive it
process.on('disconnect', () => {
  void stop().then(() => process.exit(0));
});
process.on('SIGTERM', () => {
  void stop().then(() => process.exit(0));
});
process.on('SIGINT', () => {
  // Ctrl+C reaches the whole process group: the parent stops us through IPC
});

try {
  const config = loadConfig({
    // not production, which needs PUBLIC_ORIGIN (unknown before listening on port 0) and
    // differs only by its HSTS header
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: '/nonexistent-web-dist',
    LOG_LEVEL: 'warn',
    // the simulated clients all come from this one address
    SOCKETS_PER_ADDRESS: '1000000',
    CONNECTIONS_PER_ADDRESS: '1000000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
    ADMIN_USERNAME: process.env.ADMIN_USERNAME,
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
  });
  running = await startServer(config, {
    authRateLimits: RELAXED_AUTH_LIMITS,
    // every simulated guest comes from 127.0.0.1
    guestHeartbeatLimit: RELAXED_LIMIT,
    userHeartbeatLimit: RELAXED_LIMIT,
  });
  send({ type: 'ready', url: running.url, database: running.deps.database.kind });
} catch (error) {
  send({
    type: 'failed',
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  await stop();
  process.exit(1);
}
