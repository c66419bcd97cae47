/**
 * The heartbeat's throughput in several checkouts of this repository, in one run:
 * `BENCH_TREES=before=/path/to/checkout,… npm run bench:heartbeat-compare -w @portfolio/server`
 * (each checkout with its own `npm ci`).
 *
 * Each checkout's real server (its own `bench/heartbeat.ts real`, so its own code) and one bare
 * node:http handler run as child processes side by side. Every round drives the bare server and
 * then each real one (in an order that rotates round by round) with the same mixed load as
 * `bench:heartbeat`; each real round is divided by that round's bare rate, and the median of
 * those ratios is the figure. This checkout is always measured, as `this`. It also prints each
 * server's CPU time per request (from /proc), which other work on the machine disturbs less.
 *
 * BENCH_ROUNDS (6), BENCH_ROUND_SECONDS (3), BENCH_USERS (200 signed-in users per server),
 * BENCH_USER_AGENTS=1 (guests send a browser's user agent), BENCH_CPU_PROF=<dir> (a V8 CPU
 * profile of each real server, in <dir>/<name>).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const CONNECTIONS = 50;
const USERS = Number(process.env.BENCH_USERS ?? 200);

const thisTree = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Target {
  name: string;
  child: ChildProcess;
  url: string;
  requests: autocannon.Request[];
}

/** Starts `<tree>/apps/server/bench/heartbeat.ts <role>` with that checkout's own tsx. */
function startChild(tree: string, role: 'bare' | 'real', dataDir = '', profileDir = '') {
  const serverDir = path.join(tree, 'apps/server');
  const child = fork(path.join(serverDir, 'bench/heartbeat.ts'), [role, dataDir], {
    cwd: serverDir,
    execArgv: [
      '--import',
      'tsx',
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${tree} ${role} exited with ${code}`)));
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type === 'ready' && message.url) {
        resolve({ child, url: message.url });
      }
    });
  });
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
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
    await post(`${url}/api/auth/register`, { username, password: 'bench-password' });
    const login = await post(`${url}/api/auth/login`, { username, password: 'bench-password' });
    // the session's own line: sign-in also expires any planted (partitioned) copy, first
    const session = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]?.trim() ?? '')
      .find((pair) => pair && !pair.endsWith('='));
    cookies.push(session ?? '');
  }
  return cookies;
}

/** Browsers' user agents for the guests with BENCH_USER_AGENTS=1 (autocannon sends none). */
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const withUserAgents = process.env.BENCH_USER_AGENTS === '1';

/**
 * The mixed load of bench:heartbeat: half signed-in heartbeats, half guests, five pages; with
 * BENCH_USER_AGENTS=1 the guests send a browser's user agent as browsers do.
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
      headers: {
        'content-type': 'application/json',
        ...(withUserAgents ? { 'user-agent': USER_AGENTS[n % USER_AGENTS.length] ?? '' } : {}),
      },
      body: JSON.stringify({
        currentPage: page,
        visitorId: `bench_guest_${String(n).padStart(8, '0')}`,
      }),
    };
  });
  let counter = 0;
  return [{ setupRequest: () => variants[counter++ % variants.length] ?? variants[0] ?? {} }];
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name (which may hold spaces), from field 3 on
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
  const trees = [
    { name: 'this', tree: thisTree },
    ...(process.env.BENCH_TREES ?? '')
      .split(',')
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf('=');
        return { name: entry.slice(0, at), tree: path.resolve(entry.slice(at + 1)) };
      }),
  ];
  const dataDirs: string[] = [];
  const children: ChildProcess[] = [];
  try {
    const targets: Target[] = [];
    for (const { name, tree } of trees) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-heartbeat-compare-'));
      dataDirs.push(dataDir);
      // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each real server, in <dir>/<name>
      const profileDir = process.env.BENCH_CPU_PROF
        ? path.join(path.resolve(process.env.BENCH_CPU_PROF), name)
        : '';
      const { child, url } = await startChild(tree, 'real', dataDir, profileDir);
      children.push(child);
      targets.push({ name, child, url, requests: heartbeatRequests(await signInUsers(url)) });
    }
    const bare = await startChild(thisTree, 'bare');
    children.push(bare.child);
    const bareRequests = targets[0]?.requests ?? [];
    const mixed = (url: string, requests: autocannon.Request[], duration: number) =>
      run({ url, connections: CONNECTIONS, duration, requests });
    // warm-up: JIT and caches of every server
    await mixed(bare.url, bareRequests, 2);
    const served = new Map<string, number>();
    for (const target of targets) {
      served.set(target.name, (await mixed(target.url, target.requests, 2)).requests.total);
    }
    console.log(
      `${ROUNDS} rounds of ${ROUND_SECONDS} s, ${CONNECTIONS} connections, mixed load; ` +
        'each real rate / the bare rate of the same round',
    );
    const rates = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const ratios = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    // CPU time per request: less at the mercy of other work on the machine than the rate
    const cpuPerRequest = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const bareCpu: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bareBefore = cpuSeconds(bare.child.pid);
      const bareResult = await mixed(bare.url, bareRequests, ROUND_SECONDS);
      bareCpu.push((cpuSeconds(bare.child.pid) - bareBefore) / bareResult.requests.total);
      const bareRate = bareResult.requests.average;
      bareRates.push(bareRate);
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      const line = [`round ${round + 1}: bare ${bareRate.toFixed(0)}`];
      for (const target of order) {
        if (!target) {
          continue;
        }
        const cpuBefore = cpuSeconds(target.child.pid);
        const result = await mixed(target.url, target.requests, ROUND_SECONDS);
        cpuPerRequest
          .get(target.name)
          ?.push((cpuSeconds(target.child.pid) - cpuBefore) / result.requests.total);
        if (result.non2xx + result.errors > 0) {
          console.warn(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        }
        rates.get(target.name)?.push(result.requests.average);
        served.set(target.name, (served.get(target.name) ?? 0) + result.requests.total);
        ratios.get(target.name)?.push(result.requests.average / bareRate);
        line.push(`${target.name} ${result.requests.average.toFixed(0)}`);
      }
      console.log(line.join(', '));
    }
    const micros = (values: number[]) => `${(median(values) * 1e6).toFixed(1)} µs CPU/request`;
    console.log(`bare node:http: median ${median(bareRates).toFixed(0)} req/s, ${micros(bareCpu)}`);
    for (const target of targets) {
      const r = ratios.get(target.name) ?? [];
      console.log(
        `${target.name.padEnd(10)} median ${median(rates.get(target.name) ?? []).toFixed(0)} ` +
          `req/s, ${micros(cpuPerRequest.get(target.name) ?? [])}, median ratio ${median(r).toFixed(3)} ` +
          `(${r.map((value) => value.toFixed(2)).join(' / ')}); ${served.get(target.name)} served`,
      );
    }
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
    }
    setTimeout(() => {
      for (const dataDir of dataDirs) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 2000);
  }
}

await main();
