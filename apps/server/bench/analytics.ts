/**
 * Site analytics benchmark. Run: npm run bench:analytics -w @portfolio/server
 * Needs PostgreSQL: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); every run
 * works in a scratch database of its own, dropped at the end (BENCH_KEEP=1 keeps it).
 *
 * 1. Fills 12 months (and today) with 10 M page views of 1 M visitors, plus time-on-page leaves,
 *    bots and plays, in SQL with generate_series (one statement per month), and rolls the whole
 *    days up as the server does.
 * 2. Times every dashboard query (overview, each breakdown, realtime, games) for today, 7 days,
 *    30 days and 12 months: p50 and p95 of BENCH_SAMPLES runs (goal: p50 <= 50 ms), with no
 *    filter and with one (both from rollups), and with two or three (the days' segments, in
 *    memory once read: the first such view after a start, which reads them from the database,
 *    is timed apart, with the memory they take).
 * 3. Ingest: the real server in a child process takes page-view heartbeats (autocannon, 50
 *    connections, many user agents) for BENCH_INGEST_SECONDS; page views written per second
 *    (goal: >= 5,000 on one process).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';

import { GAME_CATALOGUE } from '@portfolio/types';
import type { AnalyticsQuery } from '@portfolio/types/analytics';
import { ANALYTICS_DIMENSIONS } from '@portfolio/types/analytics';

import { int, ms, printTable, startBenchServer, summarize } from './lib.js';
import { createScratchDatabase } from '../src/test/scratch-database.js';
import { rowsOf } from '../src/db/rows.js';
import type { Db } from '../src/db/client.js';

const PAGEVIEWS = Number(process.env.BENCH_PAGEVIEWS ?? 10_000_000);
const VISITORS = 1_000_000;
const DAYS = 366;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 10);
const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const list = (values: readonly string[]) =>
  `array[${values.map((value) => `'${value}'`).join(',')}]`;
const PICK = (values: readonly string[]) =>
  `(${list(values)})[1 + floor(random() * ${values.length})::int]`;
const PAGES = [
  '/',
  '/',
  '/',
  '/games',
  '/games',
  '/Gallery',
  '/Tutorials',
  '/login',
  '/register',
  '/subscribe',
  '/profile',
  'other',
];
const COUNTRIES =
  'US GB DE FR NL SE NO DK FI PL CZ AT CH IT ES PT IE BE CA MX BR AR CL IN JP KR CN AU NZ ZA NG EG TR RU UA RO HU GR IL SG'.split(
    ' ',
  );
const REFERRERS = Array.from({ length: 60 }, (_, index) => `site${index}.example`);

async function fill(db: Db, url: string, today: string) {
  // the app's pool ends queries after a read time-out: the fill runs on a client of its own
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { createEventsRepo } = await import('../src/modules/analytics/site/events-repo.js');
  const { addDays } = await import('../src/modules/analytics/days.js');
  const repo = createEventsRepo(db);
  const first = addDays(today, -(DAYS - 1));
  for (let index = 0; index < DAYS; index++) {
    await repo.ensurePartition(addDays(first, index));
  }
  const perDay = Math.round(PAGEVIEWS / DAYS);
  const started = performance.now();
  for (let chunk = 0; chunk < DAYS; chunk += 7) {
    const days = Math.min(7, DAYS - chunk);
    const from = addDays(first, chunk);
    await client.query(`
      insert into analytics_events
        (day, at, kind, visitor, path, entry_path, is_entry, referrer, utm_source, utm_medium,
         utm_campaign, country, device, browser, os, seconds, is_exit, is_bounce, game)
      select d, at, kind, visitor, path, entry_path, is_entry, referrer, utm_source, utm_medium,
        utm_campaign, country, device, browser, os, seconds, is_exit, is_bounce, game
      from (
        select d::date as d,
          least(d + random() * interval '86399 seconds', now()) as at,
          (case when r < 0.26 then 2 when r < 0.27 then 3 when r < 0.275 then 4 else 1 end)::smallint as kind,
          (floor(random() * ${VISITORS}))::bigint as visitor,
          ${PICK(PAGES)} as path,
          ${PICK(PAGES.slice(0, 7))} as entry_path,
          random() < 0.35 as is_entry,
          case when random() < 0.5 then '(none)' else ${PICK(REFERRERS)} end as referrer,
          case when random() < 0.8 then '(none)' else ${PICK(['newsletter', 'twitter', 'reddit', 'itch'])} end as utm_source,
          case when random() < 0.8 then '(none)' else ${PICK(['email', 'social', 'cpc'])} end as utm_medium,
          case when random() < 0.8 then '(none)' else ${PICK(['launch', 'summer', 'update-2'])} end as utm_campaign,
          ${PICK(COUNTRIES)} as country,
          ${PICK(['desktop', 'desktop', 'mobile', 'mobile', 'tablet'])} as device,
          ${PICK(['Chrome', 'Chrome', 'Safari', 'Firefox', 'Microsoft Edge', 'Samsung Internet'])} as browser,
          ${PICK(['Windows', 'Android', 'iOS', 'macOS', 'Linux', 'Chrome OS'])} as os,
          floor(random() * 300)::int as seconds,
          random() < 0.8 as is_exit,
          random() < 0.3 as is_bounce,
          ${PICK(['Pong', 'WolfScape', 'RocketGame', 'MainQuest2'])} as game
        from generate_series('${from}'::date, '${addDays(from, days - 1)}'::date, interval '1 day') as d,
          lateral (select random() as r from generate_series(1, ${Math.round(perDay / 0.725)})) as g
      ) as x`);
    console.log(
      `  filled ${addDays(from, days - 1)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const counts = (
    await client.query<{ views: number; events: number; visitors: number }>(
      `select count(*) filter (where kind = 1)::int as views, count(*)::int as events,
         count(distinct visitor)::int as visitors from analytics_events`,
    )
  ).rows[0];
  await client.query('analyze analytics_events');
  await client.end();
  return { repo, seconds, counts };
}

async function timeIt(run: () => Promise<unknown>, samples: number) {
  const times: number[] = [];
  await run(); // warm
  for (let index = 0; index < samples; index++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return summarize(times);
}

async function queries() {
  const scratch = await createScratchDatabase(BASE_URL, 'bench_analytics');
  const { openDatabase } = await import('../src/db/client.js');
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
  try {
    const { dayOf } = await import('../src/modules/analytics/days.js');
    const { createAnalyticsQueryService } =
      await import('../src/modules/analytics/site/query-service.js');
    const today = dayOf(Date.now());
    console.log(`Filling ${int(PAGEVIEWS)} page views over ${DAYS} days…`);
    const { repo, seconds, counts } = await fill(database.db, scratch.url, today);
    console.log(
      `  ${int(counts?.views ?? 0)} page views, ${int(counts?.events ?? 0)} events, ${int(counts?.visitors ?? 0)} visitors in ${seconds.toFixed(0)} s`,
    );
    const service = createAnalyticsQueryService({
      db: database.db,
      repo,
      playingNow: () => Promise.resolve(new Map()),
      games: () => GAME_CATALOGUE,
    });
    const rollStart = performance.now();
    const rolled = await service.rollUp();
    console.log(
      `  rolled up ${rolled} days in ${((performance.now() - rollStart) / 1000).toFixed(0)} s`,
    );
    await database.db.execute(sql`analyze analytics_daily`);
    const [rollups] = await rowsOf<{ rows: number; filtered: number; bytes: string }>(
      database.db,
      sql`select count(*)::int as rows, (count(*) filter (where filter <> ''))::int as filtered,
            pg_size_pretty(pg_total_relation_size('analytics_daily')) as bytes
          from analytics_daily`,
    );
    console.log(
      `  analytics_daily: ${int(rollups?.rows ?? 0)} rows (${int(rollups?.filtered ?? 0)} under a filter), ${rollups?.bytes}`,
    );

    const rows: string[][] = [['query', 'period', 'p50', 'p95']];
    const results: Array<{ name: string; p50: number }> = [];
    const measure = async (name: string, period: string, run: () => Promise<unknown>) => {
      try {
        const summary = await timeIt(run, SAMPLES);
        rows.push([name, period, ms(summary.p50), ms(summary.p95)]);
        results.push({ name: `${name} ${period}`, p50: summary.p50 });
      } catch (error) {
        // the pool's 15 s read time-out: reported, not fatal
        rows.push([name, period, 'failed', error instanceof Error ? error.message : 'failed']);
        results.push({ name: `${name} ${period}`, p50: Infinity });
      }
      console.log(`  ${rows.at(-1)?.join('  ')}`);
    };
    for (const period of ['today', '7d', '30d', '12mo'] as const) {
      const query = { period } as AnalyticsQuery;
      await measure('overview', period, () => service.overview(query));
      for (const dimension of ANALYTICS_DIMENSIONS) {
        await measure(`breakdown ${dimension}`, period, () =>
          service.breakdown(dimension, query, 10),
        );
      }
      await measure('games', period, () => service.games(query));
    }
    await measure('realtime', '5 min', () => service.realtime());
    // one filter reads rollups as no filter does; two or more read the days' segments
    const twelveMonths = { period: '12mo', country: 'DE', device: 'mobile' } as AnalyticsQuery;
    const memoryBefore = process.memoryUsage().arrayBuffers;
    const coldStart = performance.now();
    await service.overview(twelveMonths);
    const coldMs = performance.now() - coldStart;
    const segmentBytes = process.memoryUsage().arrayBuffers - memoryBefore;
    const [stored] = await rowsOf<{ days: number; bytes: string }>(
      database.db,
      sql`select count(*)::int as days,
            pg_size_pretty(pg_total_relation_size('analytics_segments')) as bytes
          from analytics_segments`,
    );
    console.log(
      `  segments: ${stored?.days} days, ${stored?.bytes} stored; the first 12-month view under two filters read them in ${ms(coldMs)}, holding ${(segmentBytes / 1024 / 1024).toFixed(0)} MB`,
    );
    for (const period of ['today', '7d', '30d', '12mo'] as const) {
      const one = { period, country: 'DE' } as AnalyticsQuery;
      await measure('overview country=DE', period, () => service.overview(one));
      await measure('breakdown page country=DE', period, () => service.breakdown('page', one, 10));
      await measure('breakdown referrer page=/games', period, () =>
        service.breakdown('referrer', { period, page: '/games' }, 10),
      );
      const two = { period, country: 'DE', device: 'mobile' } as AnalyticsQuery;
      await measure('overview country=DE device=mobile', period, () => service.overview(two));
      await measure('breakdown page country=DE device=mobile', period, () =>
        service.breakdown('page', two, 10),
      );
      await measure('breakdown exit country=DE device=mobile', period, () =>
        service.breakdown('exit', two, 10),
      );
      // a wide pair: about one page view in seven matches
      const wide = { period, device: 'desktop', browser: 'Chrome' } as AnalyticsQuery;
      await measure('overview device=desktop browser=Chrome', period, () => service.overview(wide));
      await measure('breakdown referrer device=desktop browser=Chrome', period, () =>
        service.breakdown('referrer', wide, 10),
      );
      const three = { period, country: 'US', device: 'mobile', os: 'iOS' } as AnalyticsQuery;
      await measure('overview country=US device=mobile os=iOS', period, () =>
        service.overview(three),
      );
    }
    printTable(rows);
    const slow = results.filter((result) => result.p50 > 50);
    console.log(
      slow.length === 0
        ? `Every dashboard query (${results.length}, up to three filters): p50 <= 50 ms.`
        : `Over 50 ms p50: ${slow.map((result) => result.name).join(', ')}`,
    );
  } finally {
    await database.close();
    if (process.env.BENCH_KEEP) {
      console.log(`kept ${scratch.url}`);
    } else {
      await scratch.drop();
    }
  }
}

// ---------------------------------------------------------------- ingest
async function serveChild(databaseUrl: string) {
  const { RELAXED_AUTH_LIMITS, RELAXED_LIMIT } = await import('../src/test/relaxed-limits.js');
  const running = await startBenchServer(
    { DATA_DIR: '/nonexistent', DATABASE_URL: databaseUrl },
    {
      authRateLimits: RELAXED_AUTH_LIMITS,
      guestHeartbeatLimit: RELAXED_LIMIT,
      userHeartbeatLimit: RELAXED_LIMIT,
    },
  );
  process.on('message', () => {
    void running.deps.collector.flush().then(async () => {
      const [row] = await rowsOf<{ views: number }>(
        running.deps.database.db,
        sql`select count(*)::int as views from analytics_events where kind = 1`,
      );
      process.send?.({ type: 'stats', views: row?.views ?? 0 });
    });
  });
  process.once('SIGTERM', () => void running.stop().then(() => process.exit(0)));
  process.send?.({ type: 'ready', url: running.url });
}

function startChild(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', databaseUrl], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type === 'ready' && message.url) {
        resolve({ child, url: message.url });
      }
    });
  });
}

async function ingest() {
  const scratch = await createScratchDatabase(BASE_URL, 'bench_ingest');
  const { child, url } = await startChild(scratch.url);
  try {
    const viewsNow = () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { views: number }) => resolve(message.views));
        child.send({ type: 'stats' });
      });
    const requests = Array.from({ length: 500 }, (_, index) => ({
      method: 'POST' as const,
      path: '/api/anonymous-heartbeat',
      headers: {
        'content-type': 'application/json',
        origin: url,
        'user-agent': `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (index % 30)}.0.${index}.0 Safari/537.36`,
      },
      body: JSON.stringify({
        currentPage: PAGES[index % PAGES.length] === 'other' ? '/x' : PAGES[index % PAGES.length],
        view: {
          entry: index % 3 === 0,
          landing: '/',
          referrer: REFERRERS[index % REFERRERS.length],
          utm_source: index % 5 === 0 ? 'newsletter' : undefined,
        },
        left: index % 2 === 0 ? { path: '/', seconds: index % 120 } : undefined,
      }),
    }));
    const before = await viewsNow();
    const result = await autocannon({
      url,
      connections: 50,
      duration: INGEST_SECONDS,
      requests,
    });
    const after = await viewsNow();
    const written = after - before;
    printTable([
      ['ingest', 'value'],
      ['heartbeats with a page view answered', int(result.requests.total)],
      ['non-2xx', int(result.non2xx)],
      ['page views written', int(written)],
      ['page views / s', int(written / INGEST_SECONDS)],
      ['latency p50 / p99', `${result.latency.p50} ms / ${result.latency.p99} ms`],
    ]);
    console.log(
      written / INGEST_SECONDS >= 5000
        ? 'Ingest >= 5,000 page views/s on one process.'
        : 'Ingest below 5,000 page views/s.',
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await scratch.drop();
  }
}

if (process.argv[2] === 'serve') {
  await serveChild(process.argv[3] ?? '');
} else {
  if (!process.env.BENCH_SKIP_INGEST) {
    await ingest();
  }
  if (!process.env.BENCH_SKIP_QUERIES) {
    await queries();
  }
  process.exit(0);
}
