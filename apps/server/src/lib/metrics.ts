import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import { moduleLogger } from './logger.js';

/**
 * The Prometheus metrics of this process (prom-client), one registry. Request and event counts
 * are counted as they happen; gauges (connections, presence, queues, lag, the database pool) are
 * read from the running server's parts at each scrape, through `addMetricsSource`.
 *
 * Scraped at GET /metrics on METRICS_HOST:METRICS_PORT (loopback by default), or on the main port
 * with `Authorization: Bearer <METRICS_TOKEN>`. Presence and the mail queue are shared by every
 * replica (Redis, the database): aggregate them with max(), not sum().
 */
export const registry = new Registry();

// process CPU and memory, heap, GC, and the event loop's delay (nodejs_eventloop_lag_*)
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

const log = moduleLogger('metrics');

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered by the site (heartbeats: heartbeats_total), by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request to the end of its answer, by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * Heartbeats skip Express (and its per-request metrics): one increment of a plain number each;
 * the counter takes them over when it is read (no label hashing per heartbeat).
 */
const heartbeatCounts = { user: 0, guest: 0 };
const heartbeatsReported = { user: 0, guest: 0 };
export const heartbeats = new Counter({
  name: 'heartbeats_total',
  help: 'Heartbeats received by the fast path (user: signed-in path, guest: anonymous path)',
  labelNames: ['kind'] as const,
  registers: [registry],
  collect() {
    for (const kind of ['user', 'guest'] as const) {
      const added = heartbeatCounts[kind] - heartbeatsReported[kind];
      if (added > 0) {
        this.inc({ kind }, added);
        heartbeatsReported[kind] = heartbeatCounts[kind];
      }
    }
  },
});

/** Counts one heartbeat of the signed-in path (`isUser`) or the anonymous one. */
export function countHeartbeat(isUser: boolean): void {
  if (isUser) {
    heartbeatCounts.user++;
  } else {
    heartbeatCounts.guest++;
  }
}

export const gamesOriginBytes = new Counter({
  name: 'games_origin_bytes_served_total',
  help: 'Bytes of game files sent by the games origin (bodies, as stored: precompressed files count compressed)',
  registers: [registry],
});

export const runCodeQueueWait = new Histogram({
  name: 'run_code_queue_wait_seconds',
  help: 'Time a C++ run waited for a runner slot, by backend',
  labelNames: ['backend'] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** What one running server reports at a scrape (tests run several servers in one process). */
export interface MetricsSource {
  openConnections(): Promise<number>;
  sockets(): number;
  presence(): Promise<{ users: number; guests: number }>;
  runCode(): { backend: string | null; active: number; waiting: number };
  analytics(): { events: number; pending: number; rollupFailures: number };
  /** Whole days before today that are not rolled up yet (0 when up to date). */
  rollupLagDays(): Promise<number>;
  /** Mail rows by status that still need work (pending, failed). */
  mailQueue(): Promise<Record<string, number>>;
  /** PostgreSQL pool (undefined on PGlite). */
  databasePool(): { total: number; idle: number; waiting: number } | undefined;
}

const sources = new Set<MetricsSource>();

/** Reports `source` at every scrape until the returned function is called. */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** Runs `read` for each source, skipping (and logging) one that fails: a scrape always answers. */
async function eachSource(name: string, read: (source: MetricsSource) => Promise<void> | void) {
  for (const source of sources) {
    try {
      await read(source);
    } catch (error) {
      log.warn({ reason: error instanceof Error ? error.message : error }, `${name} not read`);
    }
  }
}

new Gauge({
  name: 'http_open_connections',
  help: 'Open TCP connections to the site port (sockets and keep-alive included)',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('connections', async (source) => this.inc(await source.openConnections()));
  },
});

new Gauge({
  name: 'socketio_connected_sockets',
  help: 'Socket.IO connections open on this process',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('sockets', (source) => this.inc(source.sockets()));
  },
});

new Gauge({
  name: 'presence_active',
  help: 'Visitors active in Live Activity (shared by every replica with Redis: use max())',
  labelNames: ['kind'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('presence', async (source) => {
      const { users, guests } = await source.presence();
      this.inc({ kind: 'user' }, users);
      this.inc({ kind: 'guest' }, guests);
    });
  },
});

new Gauge({
  name: 'run_code_queue_length',
  help: 'C++ runs waiting for a runner slot, by backend',
  labelNames: ['backend'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('run-code', (source) => {
      const { backend, waiting } = source.runCode();
      this.inc({ backend: backend ?? 'none' }, waiting);
    });
  },
});

new Gauge({
  name: 'run_code_active',
  help: 'C++ runs holding a runner slot, by backend',
  labelNames: ['backend'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('run-code', (source) => {
      const { backend, active } = source.runCode();
      this.inc({ backend: backend ?? 'none' }, active);
    });
  },
});

new Counter({
  name: 'analytics_events_ingested_total',
  help: 'Site analytics events (page views, leaves, plays, bot hits) taken in by this process',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('analytics', (source) => this.inc(source.analytics().events));
  },
});

new Gauge({
  name: 'analytics_events_pending',
  help: 'Analytics events in memory waiting for the next write (once a second)',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('analytics', (source) => this.inc(source.analytics().pending));
  },
});

new Gauge({
  name: 'analytics_rollup_lag_days',
  help: 'Whole days before today whose analytics are not rolled up yet (0 when up to date)',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('rollup lag', async (source) => {
      this.set(Math.max(0, await source.rollupLagDays()));
    });
  },
});

new Gauge({
  name: 'analytics_rollup_failures',
  help: 'Days whose rollup failed and is retried at the next run',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('rollup failures', (source) => this.inc(source.analytics().rollupFailures));
  },
});

new Gauge({
  name: 'mail_queue_length',
  help: 'Mail waiting to be sent (pending) or given up (failed), shared by every replica',
  labelNames: ['status'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('mail queue', async (source) => {
      const counts = await source.mailQueue();
      for (const status of ['pending', 'failed']) {
        this.set({ status }, counts[status] ?? 0);
      }
    });
  },
});

new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource('database pool', (source) => {
      const pool = source.databasePool();
      if (pool) {
        this.inc({ state: 'total' }, pool.total);
        this.inc({ state: 'idle' }, pool.idle);
        this.inc({ state: 'waiting' }, pool.waiting);
      }
    });
  },
});

/** A route label of low cardinality: the Express route that served it, else a family. */
function fallbackRoute(req: { path: string }, status: number): string {
  if (status === 404) {
    return 'unmatched';
  }
  if (req.path.startsWith('/api/')) {
    return '/api/*';
  }
  if (req.path.startsWith('/games/')) {
    return '/games/*';
  }
  return 'web';
}

/**
 * Counts and times every request Express serves, by the route that matched. The route is caught
 * as the router sets `req.route` (with the mount path of that moment): by the time an error has
 * travelled back to the error middleware, the routers have put `req.baseUrl` back.
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  let matchedRoute: string | undefined;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (value && typeof value.path === 'string') {
        matchedRoute = `${req.baseUrl}${value.path}`;
      }
    },
  });
  res.once('finish', () => {
    const status = res.statusCode;
    const labels = {
      method: req.method,
      route: matchedRoute ?? fallbackRoute(req, status),
      status: String(status),
    };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
};

/** Whether a request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasMetricsToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Writes the scrape (text exposition format). */
export async function sendMetrics(res: ServerResponse): Promise<void> {
  const body = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

export interface MetricsServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** The metrics listener of its own (METRICS_PORT): GET /metrics, nothing else. */
export async function startMetricsServer(host: string, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    sendMetrics(res).catch((error: unknown) => {
      log.error({ err: error }, 'scrape failed');
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
