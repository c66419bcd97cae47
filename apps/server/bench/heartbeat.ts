/**
 * Heartbeat benchmark. Run: npm run bench:heartbeat -w @portfolio/server
 *
 * 1. Throughput of POST /api/auth/heartbeat + /api/anonymous-heartbeat on the real server vs a
 *    bare node:http handler that only parses the JSON body, same load, same run: the servers
 *    alternate in short rounds (the machine's speed drifts) and the median ratio is the figure.
 * 2. Latency (p50/p99) of the real endpoint at a fixed 2,000 heartbeats/s.
 * 3. Database statements and session-store writes per heartbeat, from the server's counters.
 * 4. Guest heartbeats carrying a random (unknown) session cookie on every request vs the same
 *    heartbeats without one, alternating rounds (goal: ratio >= 0.8; the cookie costs no query).
 * 5. 20,000 WebSocket connection attempts from one address (127.0.0.2), each kept open if
 *    accepted, while GET /api/health is probed from another (127.0.0.1): the health p99 with and
 *    without the attack, and how many attempts were accepted.
 *
 * Each server runs in a child process (so the load generator does not share its event loop);
 * the real one on a fresh PGlite folder, or PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { int, startBenchServer } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = 3;
const CONNECTIONS = 50;
const FIXED_RATE = 2000;
const FIXED_RATE_SECONDS = 10;
const USERS = 200;

type Stats = {
  heartbeats: number;
  statements: number;
  sessionQueries: number;
  sessionWrites: number;
};
type ChildMessage = { type: 'ready'; url: string } | { type: 'stats'; stats: Stats };

// ---------------------------------------------------------------- children
async function serveBare() {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = '{"ok":true}';
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send?.({
    type: 'ready',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
}

async function serveReal(dataDir: string) {
  const { RELAXED_AUTH_LIMITS, RELAXED_LIMIT } = await import('../src/test/relaxed-limits.js');
  const running = await startBenchServer(
    { DATA_DIR: dataDir },
    {
      authRateLimits: RELAXED_AUTH_LIMITS,
      // the load comes from one address
      guestHeartbeatLimit: RELAXED_LIMIT,
      userHeartbeatLimit: RELAXED_LIMIT,
    },
  );
  process.on('message', (message: { type: string }) => {
    if (message.type !== 'stats') {
      return;
    }
    // write what is pending so the counters include the flushes this load caused
    void Promise.all([
      running.deps.presence.flush(),
      running.deps.analytics.flush(),
      running.deps.sessions.flush(),
    ]).then(() => {
      const presence = running.deps.presence.stats();
      const sessions = running.deps.sessions.stats();
      process.send?.({
        type: 'stats',
        stats: {
          heartbeats: presence.heartbeats,
          statements: presence.statements,
          sessionQueries: sessions.queries,
          sessionWrites: sessions.writes,
        },
      } satisfies ChildMessage);
    });
  });
  // a clean exit, so --cpu-prof (BENCH_CPU_PROF) can write its profile
  process.once('SIGTERM', () => {
    void running.stop().then(() => process.exit(0));
  });
  process.send?.({ type: 'ready', url: running.url } satisfies ChildMessage);
}

// ---------------------------------------------------------------- parent
function startChild(
  role: 'bare' | 'real',
  dataDir = '',
): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), [role, dataDir], {
    execArgv: [
      '--import',
      'tsx',
      ...(role === 'real' && process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        resolve({ child, url: message.url });
      }
    });
  });
}

function childStats(child: ChildProcess): Promise<Stats> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'stats') {
        child.off('message', onMessage);
        resolve(message.stats);
      }
    };
    child.on('message', onMessage);
    child.send({ type: 'stats' });
  });
}

async function json(url: string, body: unknown, cookie?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  return response;
}

async function signInUsers(url: string): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `bench_${i}_${randomBytes(3).toString('hex')}`;
    await json(`${url}/api/auth/register`, { username, password: 'bench-password' });
    const login = await json(`${url}/api/auth/login`, { username, password: 'bench-password' });
    // the session's own line: sign-in also expires any planted (partitioned) copy, first
    const session = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]?.trim() ?? '')
      .find((pair) => pair && !pair.endsWith('='));
    cookies.push(session ?? '');
  }
  return cookies;
}

/**
 * The load: half signed-in heartbeats (rotating over the users' cookies), half guests with
 * visitor ids, over five pages. Precomputed, and sent unchanged to both servers, so the load
 * generator does the same work in both runs and only the server differs.
 */
function heartbeatRequests(cookies: string[]): autocannon.Request[] {
  const pages = ['/', '/games', '/Gallery', '/Tutorials', '/profile'];
  const variants = Array.from({ length: 2000 }, (_, n) => {
    const page = pages[n % pages.length] ?? '/';
    if (n % 2 === 0) {
      return {
        method: 'POST' as const,
        path: '/api/auth/heartbeat',
        headers: { 'content-type': 'application/json', cookie: cookies[n % cookies.length] ?? '' },
        body: JSON.stringify({ currentPage: page }),
      };
    }
    return {
      method: 'POST' as const,
      path: '/api/anonymous-heartbeat',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPage: page,
        visitorId: `bench_guest_${String(n).padStart(8, '0')}`,
      }),
    };
  });
  let counter = 0;
  return [{ setupRequest: () => variants[counter++ % variants.length] ?? variants[0] ?? {} }];
}

/** Guest heartbeats, each with a random cookie header: a session cookie, or a harmless one. */
function guestRequests(withSessionCookie: boolean): autocannon.Request[] {
  let counter = 0;
  return [
    {
      setupRequest: () => {
        const random = randomBytes(32).toString('base64url');
        // half look like current tokens (a bad signature), half like the older unsigned ones
        const token = counter % 2 ? `${random}.${randomBytes(16).toString('base64url')}` : random;
        counter++;
        return {
          method: 'POST' as const,
          path: '/api/anonymous-heartbeat',
          headers: {
            'content-type': 'application/json',
            // the session cookie's name on a loopback site (session-middleware.ts)
            cookie: withSessionCookie ? `__Host-sid=${token}` : `theme=${token}`,
          },
          body: JSON.stringify({
            currentPage: '/games',
            visitorId: `bench_guest_${String(counter % 1000).padStart(8, '0')}`,
          }),
        };
      },
    },
  ];
}

/**
 * One WebSocket handshake from `localAddress`; an accepted one is kept open (in `held`), as an
 * attacker would. Resolves with what the server did.
 */
function attemptSocket(url: string, localAddress: string, held: Socket[]) {
  const target = new URL(url);
  return new Promise<'accepted' | 'refused'>((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), localAddress });
    let settled = false;
    const settle = (outcome: 'accepted' | 'refused') => {
      if (!settled) {
        settled = true;
        resolve(outcome);
      }
    };
    socket.setTimeout(15_000, () => socket.destroy());
    socket.on('connect', () =>
      socket.write(
        `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${target.host}\r\n` +
          `Origin: ${url}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    socket.once('data', (chunk: Buffer) => {
      if (chunk.toString('latin1').startsWith('HTTP/1.1 101')) {
        socket.setTimeout(0);
        held.push(socket);
        settle('accepted');
      } else {
        socket.destroy();
        settle('refused');
      }
    });
    socket.on('error', () => settle('refused'));
    socket.on('close', () => settle('refused'));
  });
}

/** GET /api/health every 20 ms until `until` resolves; the latencies and failures. */
async function probeHealth(url: string, until: Promise<unknown>) {
  const latencies: number[] = [];
  let failures = 0;
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
      await response.text();
      if (response.ok) {
        latencies.push(performance.now() - started);
      } else {
        failures++;
      }
    } catch {
      failures++;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, failures, p50: at(0.5), p99: at(0.99) };
}

const ATTEMPTS = Number(process.env.BENCH_CONNECTION_ATTEMPTS ?? 20_000);
const ATTEMPT_CONCURRENCY = 200;

async function connectionFlood(url: string) {
  const baseline = await probeHealth(url, new Promise((resolve) => setTimeout(resolve, 3000)));
  const held: Socket[] = [];
  let accepted = 0;
  let refused = 0;
  let next = 0;
  const started = Date.now();
  const flood = Promise.all(
    Array.from({ length: ATTEMPT_CONCURRENCY }, async () => {
      while (next < ATTEMPTS) {
        next++;
        if ((await attemptSocket(url, '127.0.0.2', held)) === 'accepted') {
          accepted++;
        } else {
          refused++;
        }
      }
    }),
  );
  const during = await probeHealth(url, flood);
  const seconds = (Date.now() - started) / 1000;
  held.forEach((socket) => socket.destroy());
  return { baseline, during, accepted, refused, seconds };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error: unknown, result) => {
      if (error) {
        reject(error instanceof Error ? error : new Error('autocannon failed'));
        return;
      }
      resolve(result);
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-heartbeat-'));
  const store = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const presence = process.env.REDIS_URL ? 'Redis' : 'in-process';
  console.log(
    `heartbeat benchmark: ${store} database, ${presence} presence, ${CONNECTIONS} connections, ` +
      `${ROUNDS} alternating rounds of ${ROUND_SECONDS} s`,
  );

  const real = await startChild('real', dataDir);
  let bare: { child: ChildProcess; url: string } | undefined;
  try {
    const cookies = await signInUsers(real.url);
    bare = await startChild('bare');
    const requests = heartbeatRequests(cookies);
    // one fixed signed-in heartbeat: the cheapest load to generate, so the servers are the limit
    const single = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', cookie: cookies[0] ?? '' },
      body: JSON.stringify({ currentPage: '/games' }),
    };
    const mixed = (url: string, duration: number) =>
      run({ url, connections: CONNECTIONS, duration, requests });
    const fixedOne = (url: string) =>
      run({
        url: `${url}/api/auth/heartbeat`,
        connections: CONNECTIONS,
        duration: ROUND_SECONDS,
        ...single,
      });

    await mixed(real.url, 2);
    await mixed(bare.url, 2);
    const before = await childStats(real.child);
    // the machine is shared and noisy: alternate the two servers in short rounds and compare
    // each real round with the bare round just before it, then take the median ratio
    const rounds: Array<{ bare: number; real: number; bareOne: number; realOne: number }> = [];
    const results: autocannon.Result[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bareMixed = await mixed(bare.url, ROUND_SECONDS);
      const realMixed = await mixed(real.url, ROUND_SECONDS);
      const bareOne = await fixedOne(bare.url);
      const realOne = await fixedOne(real.url);
      results.push(realMixed, realOne);
      rounds.push({
        bare: bareMixed.requests.average,
        real: realMixed.requests.average,
        bareOne: bareOne.requests.average,
        realOne: realOne.requests.average,
      });
    }
    const fixed = await run({
      url: real.url,
      connections: CONNECTIONS,
      duration: FIXED_RATE_SECONDS,
      overallRate: FIXED_RATE,
      requests,
    });
    results.push(fixed);
    const after = await childStats(real.child);

    // 4. a random session cookie on every request vs none
    const cookieRounds: Array<{ without: number; random: number }> = [];
    const guests = (withCookie: boolean) =>
      run({
        url: real.url,
        connections: CONNECTIONS,
        duration: ROUND_SECONDS,
        requests: guestRequests(withCookie),
      });
    const beforeCookies = await childStats(real.child);
    for (let round = 0; round < ROUNDS; round++) {
      // the order alternates too, so a drift of the machine's speed favours neither
      const first = await guests(round % 2 === 1);
      const second = await guests(round % 2 === 0);
      const [without, random] = round % 2 === 1 ? [second, first] : [first, second];
      results.push(without, random);
      cookieRounds.push({ without: without.requests.average, random: random.requests.average });
    }
    const afterCookies = await childStats(real.child);
    const cookieRatios = cookieRounds.map((r) => r.random / r.without);

    // 5. 20,000 connection attempts from one address
    const flood = await connectionFlood(real.url);

    const errors = results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
    const heartbeats = after.heartbeats - before.heartbeats;
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ');
    const ratios = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    const mixedRatios = rounds.map((r) => r.real / r.bare);
    const oneRatios = rounds.map((r) => r.realOne / r.bareOne);
    const rows = [
      [
        'mixed load (users + guests, 5 pages): bare node:http req/s',
        list(rounds.map((r) => r.bare)),
      ],
      ['mixed load: real heartbeat req/s', list(rounds.map((r) => r.real))],
      ['mixed load: ratio real / bare per round', ratios(mixedRatios)],
      ['mixed load: median ratio (goal >= 0.5)', median(mixedRatios).toFixed(2)],
      ['one fixed request: bare node:http req/s', list(rounds.map((r) => r.bareOne))],
      ['one fixed request: real heartbeat req/s', list(rounds.map((r) => r.realOne))],
      ['one fixed request: ratio real / bare per round', ratios(oneRatios)],
      ['one fixed request: median ratio (goal >= 0.5)', median(oneRatios).toFixed(2)],
      [`latency at ${FIXED_RATE}/s: achieved req/s`, fixed.requests.average.toFixed(0)],
      [`latency at ${FIXED_RATE}/s: p50 ms`, String(fixed.latency.p50)],
      [`latency at ${FIXED_RATE}/s: p99 ms`, String(fixed.latency.p99)],
      ['heartbeats counted by the server', String(heartbeats)],
      [
        'DB statements per heartbeat (goal <= 0.05)',
        ((after.statements - before.statements) / heartbeats).toExponential(2),
      ],
      [
        'session-store writes per heartbeat (goal 0)',
        String((after.sessionWrites - before.sessionWrites) / heartbeats),
      ],
      [
        'session-store reads per heartbeat',
        ((after.sessionQueries - before.sessionQueries) / heartbeats).toExponential(2),
      ],
      ['guest heartbeats without a session cookie req/s', list(cookieRounds.map((r) => r.without))],
      ['guest heartbeats, random session cookie req/s', list(cookieRounds.map((r) => r.random))],
      ['random cookie: ratio per round', ratios(cookieRatios)],
      ['random cookie: median ratio (goal >= 0.8)', median(cookieRatios).toFixed(2)],
      [
        'random cookie: session queries during those rounds',
        String(afterCookies.sessionQueries - beforeCookies.sessionQueries),
      ],
      [
        `${int(ATTEMPTS)} WebSocket attempts from 127.0.0.2: accepted / refused`,
        `${flood.accepted} / ${flood.refused} in ${flood.seconds.toFixed(1)} s`,
      ],
      [
        'health from 127.0.0.1 before: p50 / p99 ms (n)',
        `${flood.baseline.p50.toFixed(1)} / ${flood.baseline.p99.toFixed(1)} (${flood.baseline.count})`,
      ],
      [
        'health from 127.0.0.1 during the flood: p50 / p99 ms (n)',
        `${flood.during.p50.toFixed(1)} / ${flood.during.p99.toFixed(1)} (${flood.during.count})`,
      ],
      ['health failures during the flood', String(flood.during.failures)],
      ['non-2xx or errors', String(errors)],
    ];
    const width = Math.max(...rows.map(([label]) => (label ?? '').length));
    for (const [label, value] of rows) {
      console.log(`${(label ?? '').padEnd(width)}  ${value}`);
    }
    if (errors > 0) {
      process.exitCode = 1;
    }
  } finally {
    real.child.kill('SIGTERM');
    bare?.child.kill();
    setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 2000);
  }
}

const [role, dataDir] = process.argv.slice(2);
if (role === 'bare') {
  void serveBare();
} else if (role === 'real') {
  void serveReal(dataDir ?? '');
} else {
  await main();
}
