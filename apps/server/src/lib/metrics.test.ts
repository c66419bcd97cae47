import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, startTestApp, TEST_BROWSER_AGENT } from '../test/harness.js';

const TOKEN = randomBytes(24).toString('hex');
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ metrics: { port: 0, host: '127.0.0.1', token: TOKEN } });
});

afterAll(async () => {
  await app.stop();
});

/** The value of one series in a scrape (undefined when it is not there). */
function valueOf(scrape: string, series: string): number | undefined {
  const line = scrape.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(): Promise<string> {
  const response = await fetch(`${app.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe('GET /metrics', () => {
  it('reports requests by route and status, heartbeats, game bytes and the gauges after traffic', async () => {
    const client = app.client();
    for (let index = 0; index < 3; index++) {
      expect((await client.request('GET', '/api/games')).status).toBe(200);
    }
    expect((await client.request('GET', '/api/no-such-route')).status).toBe(404);
    const heartbeat = await client.request('POST', '/api/anonymous-heartbeat', {
      currentPage: '/games',
      visitorId: 'metrics-visitor-0001',
      view: { entry: true },
    });
    expect(heartbeat.status).toBe(200);
    const games = await client.request<{ games: { playUrl: string | null }[] }>(
      'GET',
      '/api/games',
    );
    const playUrl = games.body.games.find((game) => game.playUrl)?.playUrl;
    expect(playUrl).toBeTruthy();
    const played = await fetch(new URL(new URL(playUrl ?? '').pathname, app.gamesUrl), {
      headers: { 'user-agent': TEST_BROWSER_AGENT },
    });
    expect(played.status).toBe(200);
    const gameBytes = (await played.arrayBuffer()).byteLength;

    let text = await scrape();
    // the page view is taken in once the day's salt is read (up to 10 s on a loaded machine), and
    // a file's bytes are counted when the server has finished sending it, which in this one
    // process may come after the client has read them
    const isSettled = (scraped: string) =>
      (valueOf(scraped, 'analytics_events_ingested_total') ?? 0) > 0 &&
      (valueOf(scraped, 'games_origin_bytes_served_total') ?? 0) >= gameBytes;
    for (let tries = 0; tries < 100 && !isSettled(text); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await scrape();
    }
    expect(valueOf(text, 'http_requests_total{method="GET",route="/api/games",status="200"}')).toBe(
      4,
    );
    expect(valueOf(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(
      1,
    );
    expect(
      valueOf(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/games",status="200"}',
      ),
    ).toBe(4);
    expect(valueOf(text, 'heartbeats_total{kind="guest"}')).toBe(1);
    expect(valueOf(text, 'games_origin_bytes_served_total')).toBeGreaterThanOrEqual(gameBytes);
    // presence, the mail queue and the rollups are shared with other tests on PostgreSQL + Redis
    expect(valueOf(text, 'presence_active{kind="guest"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'presence_active{kind="user"}')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'http_open_connections')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'socketio_connected_sockets')).toBe(0);
    expect(valueOf(text, 'analytics_events_ingested_total')).toBe(1);
    expect(valueOf(text, 'analytics_rollup_lag_days')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'mail_queue_length{status="pending"}')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^run_code_queue_length\{backend="[a-z]+"\} 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [\d.e-]+$/m);
    if (app.deps.database.kind === 'postgres') {
      expect(valueOf(text, 'db_pool_connections{state="total"}')).toBeGreaterThan(0);
    }
  });

  it('serves only /metrics on its own port, which listens on loopback', async () => {
    expect(new URL(app.metricsUrl ?? '').hostname).toBe('127.0.0.1');
    expect((await fetch(`${app.metricsUrl}/api/health`)).status).toBe(404);
  });

  it('is refused on the main port without the bearer token, and served with it', async () => {
    const none = await fetch(`${app.url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.text()).not.toContain('http_requests_total');
    const wrong = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN.slice(1)}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('http_requests_total');
  });
});

describe('without METRICS_TOKEN', () => {
  it('answers /metrics on the main port with a 404', async () => {
    const plain = await startTestApp();
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
      expect(plain.metricsUrl).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});

describe('GET /api/health and /api/ready', () => {
  it('are 200 while the database answers, and ready turns 503 at shutdown', async () => {
    const probe = await startTestApp();
    try {
      expect((await fetch(`${probe.url}/api/health`)).status).toBe(200);
      const ready = await fetch(`${probe.url}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true });
      probe.deps.readiness.markStopping();
      const stopping = await fetch(`${probe.url}/api/ready`);
      expect(stopping.status).toBe(503);
      expect(await stopping.json()).toEqual({ ready: false, reason: 'shutting down' });
      // alive all the same
      expect((await fetch(`${probe.url}/api/health`)).status).toBe(200);
    } finally {
      await probe.stop();
    }
  });

  it('is 503 naming Redis while Redis is unreachable', async () => {
    // a port nothing listens on
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const probe = await startTestApp({ redisUrl: `redis://127.0.0.1:${port}` });
    try {
      const ready = await fetch(`${probe.url}/api/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toMatch(/^Redis unreachable/);
    } finally {
      await probe.stop();
    }
    // startup waits for Redis twice (2 s each) before going on without it
  }, 45_000);
});
