/**
 * GET /api/users with 100,000 users: a page of 50, searched and sorted (target: p50 ≤ 20 ms).
 *
 *   npm run bench:users-list                           # PGlite in a temporary folder
 *   DATABASE_URL=postgres://… npm run bench:users-list # a scratch database on that server
 *
 * One process: the real server (startServer).
 *   1. 100,000 users inserted in batches of 5,000 (one shared password hash) with varied names
 *      ('<word>_<word>_<number>'), roles, creation times, last logins (a third never signed in)
 *      and time on site; then ANALYZE, as autovacuum would do after such a load.
 *   2. For each query: 20 warm-up and 200 sequential requests with the admin's cookie, over HTTP
 *      (fetch in the same process, so client time is included). The answer is checked: the page
 *      size, X-Total-Count against a count made in SQL, and the order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { sql } from 'drizzle-orm';

import { TOTAL_COUNT_HEADER, UserList, type UserSummary } from '@portfolio/types';

import { loadConfig } from '../src/config.js';
import { users } from '../src/db/schema.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { type RunningServer, startServer } from '../src/server.js';
import { RELAXED_AUTH_LIMITS } from '../src/test/relaxed-limits.js';
import {
  type ScratchDatabase,
  type Summary,
  createScratchDatabase,
  int,
  login,
  ms,
  printTable,
  summarize,
} from './lib.js';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const WARMUP = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const USER_BATCH = 5000;
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? 600_000);
const TARGET_MS = 20;
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password' };
const DAY_MS = 24 * 60 * 60 * 1000;
/** Name parts: 16 × 16 pairs, each with ~390 users at 100,000. */
const WORDS = [
  'wolf',
  'rocket',
  'pixel',
  'dragon',
  'shadow',
  'comet',
  'ember',
  'frost',
  'nova',
  'raven',
  'tiger',
  'echo',
  'blaze',
  'storm',
  'lotus',
  'orbit',
];

interface Scenario {
  label: string;
  query: string;
  /** The WHERE of an SQL count that must equal X-Total-Count. */
  where: string;
  /** Whether the target applies (the searched and sorted page the issue names). */
  isTarget: boolean;
  check: (users: UserSummary[]) => boolean;
}

const isSorted = (values: Array<string | number>, order: 'asc' | 'desc') =>
  values.slice(1).every((value, index) => {
    const previous = values[index] ?? value;
    return order === 'asc' ? previous <= value : previous >= value;
  });

const SCENARIOS: Scenario[] = [
  {
    // no database work at all: what any request costs on the machine at the moment
    label: 'baseline: GET /api/auth/current-user (no query)',
    query: '',
    where: 'true',
    isTarget: false,
    check: () => true,
  },
  {
    label: "search 'agon_rav' (part of a name), by time on site, longest first",
    query: 'q=agon_rav&sort=total_time_spent&order=desc&pageSize=50',
    where: "lower(username) like '%agon\\_rav%'",
    isTarget: true,
    check: (page) =>
      page.length === 50 &&
      page.every((user) => user.username.includes('agon_rav')) &&
      isSorted(
        page.map((user) => user.total_time_spent),
        'desc',
      ),
  },
  {
    label: "search 'storm_echo_1' (part of a name), by last login, newest first",
    query: 'q=storm_echo_1&sort=last_login&order=desc&pageSize=50',
    where: "lower(username) like '%storm\\_echo\\_1%'",
    isTarget: true,
    check: (page) => page.every((user) => user.username.includes('storm_echo_1')),
  },
  {
    label: "search 'NOVA' (a name part, 1 in 8 users), by username",
    query: 'q=NOVA&sort=username&order=asc&pageSize=50',
    where: "lower(username) like '%nova%'",
    isTarget: true,
    check: (page) =>
      page.length === 50 &&
      isSorted(
        page.map((user) => user.username.toLowerCase()),
        'asc',
      ),
  },
  {
    label: 'no search, newest first (the first view)',
    query: 'sort=created_at&order=desc&pageSize=50',
    where: 'true',
    isTarget: false,
    check: (page) =>
      page.length === 50 &&
      isSorted(
        page.map((user) => user.created_at),
        'desc',
      ),
  },
  {
    label: 'no search, by role, page 400 (offset 19,950)',
    query: 'sort=role&order=asc&page=400&pageSize=50',
    where: 'true',
    isTarget: false,
    check: (page) => page.length === 50,
  },
];

// ---- 1. users ---------------------------------------------------------------------------------

async function insertUsers(running: RunningServer) {
  const { db } = running.deps.database;
  // argon2 is deliberately slow: every bench user shares one hash
  const passwordHash = await hashPassword('bench-user-password');
  const words = `array[${WORDS.map((word) => `'${word}'`).join(',')}]`;
  const endMs = Date.now();
  for (let from = 1; from <= USERS; from += USER_BATCH) {
    const to = Math.min(USERS, from + USER_BATCH - 1);
    await db.execute(sql`
      insert into users (username, password_hash, role, created_at, last_login, total_time_spent)
      select
        (${sql.raw(words)})[1 + g % 16] || '_' || (${sql.raw(words)})[1 + (g / 16) % 16] || '_' || g,
        ${passwordHash},
        case when g % 50 = 0 then 'admin' when g % 7 = 0 then 'subscriber' else 'user' end,
        to_timestamp((${endMs}::double precision - (g * 37 % 365) * ${DAY_MS}::double precision - g) / 1000),
        case when g % 3 = 0 then null
          else to_timestamp((${endMs}::double precision - (g * 13 % 60) * ${DAY_MS}::double precision - g * 1000) / 1000) end,
        (g * 7919) % 360000
      from generate_series(${from}::int, ${to}::int) g`);
  }
  await db.execute(sql`analyze users`);
}

async function countWhere(running: RunningServer, where: string): Promise<number> {
  const [row] = await running.deps.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(sql.raw(where));
  return row?.count ?? -1;
}

// ---- 2. requests ------------------------------------------------------------------------------

async function measure(
  baseUrl: string,
  cookie: string,
  scenario: Scenario,
): Promise<{ summary: Summary; page: UserSummary[]; total: number }> {
  const samples: number[] = [];
  let page: UserSummary[] = [];
  let total = Number.NaN;
  for (let index = 0; index < WARMUP + REQUESTS; index++) {
    const started = performance.now();
    const url = scenario.query ? `/api/users?${scenario.query}` : '/api/auth/current-user';
    const response = await fetch(`${baseUrl}${url}`, {
      headers: { accept: 'application/json', cookie },
    });
    const body: unknown = await response.json();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body)}`);
    }
    if (index >= WARMUP) {
      samples.push(elapsed);
    }
    if (scenario.query) {
      page = UserList.parse(body);
      total = Number(response.headers.get(TOTAL_COUNT_HEADER));
    }
  }
  return { summary: summarize(samples), page, total };
}

// ---- main -------------------------------------------------------------------------------------

let aborting = false;

async function main() {
  const began = performance.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-users-list-'));
  let scratch: ScratchDatabase | undefined;
  let running: RunningServer | undefined;
  const cleanUp = () => rmSync(dataDir, { recursive: true, force: true });
  process.on('exit', cleanUp);
  const abort = (code: number) => {
    if (aborting) {
      return;
    }
    aborting = true;
    void (async () => {
      await Promise.race([running?.stop().catch(() => undefined), sleep(3000)]);
      await Promise.race([scratch?.drop().catch(() => undefined), sleep(5000)]);
      process.exit(code);
    })();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      abort(130);
    });
  }
  const limit = setTimeout(() => {
    console.error(`time limit of ${TIME_LIMIT_MS / 1000} s reached: stopping`);
    abort(1);
  }, TIME_LIMIT_MS);
  limit.unref();
  try {
    if (process.env.DATABASE_URL) {
      scratch = await createScratchDatabase(process.env.DATABASE_URL, 'bench_users_list');
    }
    console.log(
      `users-list benchmark: ${int(USERS)} users; ${os.cpus().length} cores, Node ${process.version}; ` +
        `database ${scratch ? `PostgreSQL (scratch database ${scratch.name})` : `PGlite in ${dataDir}`}`,
    );
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
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    running = await startServer(config, { authRateLimits: RELAXED_AUTH_LIMITS });
    let stepStarted = performance.now();
    await insertUsers(running);
    console.log(
      `inserted ${int(USERS)} users in ${((performance.now() - stepStarted) / 1000).toFixed(1)} s`,
    );
    const cookie = await login(running.url, ADMIN.username, ADMIN.password);

    const rows: string[][] = [];
    const checks: Array<[string, boolean]> = [];
    stepStarted = performance.now();
    for (const scenario of SCENARIOS) {
      const { summary, page, total } = await measure(running.url, cookie, scenario);
      rows.push([
        scenario.label,
        scenario.query ? int(total) : '–',
        String(page.length),
        ms(summary.mean, 2),
        ms(summary.p50, 2),
        ms(summary.p95, 2),
        ms(summary.p99, 2),
        ms(summary.max, 2),
      ]);
      if (!scenario.query) {
        continue;
      }
      const expectedTotal = await countWhere(running, scenario.where);
      checks.push([
        `${scenario.label}: X-Total-Count ${int(total)} = ${int(expectedTotal)}, page and order right`,
        total === expectedTotal && scenario.check(page),
      ]);
      if (scenario.isTarget) {
        checks.push([
          `${scenario.label}: p50 ${ms(summary.p50, 2)} ≤ ${TARGET_MS} ms`,
          summary.p50 <= TARGET_MS,
        ]);
      }
    }
    console.log(
      `load average (1/5/15 min) after the requests: ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
    );
    printTable([
      ['GET /api/users?…', 'matches', 'page', 'mean', 'p50', 'p95', 'p99', 'max'],
      ...rows,
    ]);
    console.log('\nChecks');
    for (const [label, ok] of checks) {
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}`);
    }
    console.log(`\nwhole run ${((performance.now() - began) / 1000).toFixed(0)} s`);
    if (checks.some(([, ok]) => !ok)) {
      process.exitCode = 1;
    }
  } finally {
    clearTimeout(limit);
    await running?.stop();
    await scratch?.drop();
    cleanUp();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    if (aborting) {
      return;
    }
    console.error('users-list benchmark failed:', error);
    process.exit(1);
  },
);
