/**
 * Leaderboards at 1,000,000 scores on PostgreSQL, and with Redis: a player's rank, the top 100,
 * the top 100 with the board's player count, and a score's submission.
 *
 *   npm run bench:leaderboard -w @portfolio/server
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_SCORES=1000000 …
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379 …   (or BENCH_REDIS=1) the Redis variant as well
 *
 * Figures (2 cores shared with other engineers' builds and tests, load average 15–18;
 * PostgreSQL 15, default settings; p50 / p95). "Before" is this script at bd22648 (a rank was one
 * count of the rows before the player's), run just before "after", 1,000,000 scores each:
 *
 *                             before             PostgreSQL bins    Redis sorted set
 *   rank, all time            88.3 / 187.8 ms    1.8 / 7.6 ms       2.3 / 9.2 ms
 *   rank, week (100,000)      10.9 / 22.7 ms     1.7 / 7.7 ms       2.8 / 7.6 ms
 *   top 100                   4.1 / 8.4 ms       1.9 / 4.6 ms       2.2 / 6.4 ms
 *   top 100 + player count    122.8 / 174.8 ms   2.1 / 6.5 ms       1.9 / 4.8 ms
 *   submit a score            64.3 / 163.7 ms    7.8 / 16.0 ms      7.9 / 15.0 ms
 *   (before's submissions: that script with 200 submissions in place of its reads; its rank
 *   after a score was the same count)
 *
 *   10,000,000 scores (same load): rank 2.7 / 8.2 ms (bins), 2.2 / 7.9 ms (Redis); week
 *   (1,000,000) 2.2 / 9.5 and 2.0 / 7.6 ms; top 100 + count 2.5 / 7.8 and 2.1 / 7.2 ms.
 *   The backfill counts 1,000,000 scores into bins in 1.7 s, 10,000,000 in 19–21 s; a Redis set
 *   is rebuilt in 8 s at 1,000,000 (151 MB), 90–120 s at 10,000,000 (1.56 GB). bench/README.md
 *   has the whole runs.
 *
 * It creates its own database (`bench_leaderboard`) on that server, applies the migrations,
 * and drops the database at the end, so nothing else there is touched; the Redis variant's keys
 * carry a prefix of their own and are deleted at the end.
 *   1. BENCH_SCORES users and as many best scores on one board's all-time bucket (values spread
 *      0…10,000,000 with ties, times over a year), plus the same users' scores in the current
 *      week's bucket for a tenth of them, loaded as rows stored before the bins existed (triggers
 *      off), then counted into bins as migration 0020 does (the backfill, timed); VACUUM ANALYZE,
 *      as autovacuum would after such a load. Users are numbered in id order, their indexes no
 *      leaderboard query reads are dropped and the rank index is built after the rows: 10,000,000
 *      load in ~3 minutes here (the script before took ~80 s for 1,000,000).
 *   2. Through the service (the queries the routes run), sequentially: BENCH_RANK_LOOKUPS rank
 *      lookups of random players in each bucket, BENCH_TOP_READS top-100 reads without the count
 *      and BENCH_COUNTED_READS with it, then BENCH_SUBMITS scores of random players (some better
 *      than their best). Answers are checked against plain SQL: ranks against a count of the rows
 *      before the player's (BENCH_CHECKS of them, before and after the submissions), the top
 *      against the index's first 100 rows, the total against count(*).
 *   3. With Redis: the same on a service with Redis sets (the first rank lookup finds no set and
 *      rebuilds it from PostgreSQL: timed), after the PostgreSQL-only round.
 * BENCH_KEEP=1 keeps the database at the end, and a later run with it uses a kept database of
 * BENCH_SCORES scores instead of loading one (the submissions of earlier runs stay in it).
 */
import { performance } from 'node:perf_hooks';

import { Redis } from 'ioredis';
import pg from 'pg';

import { openDatabase } from '../src/db/client.js';
import { createLeaderboardService } from '../src/modules/leaderboards/service.js';
import { int, ms, printTable, summarize } from './lib.js';

const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL =
  process.env.BENCH_REDIS_URL ?? (process.env.BENCH_REDIS === '1' ? 'redis://127.0.0.1:6379' : '');
const DATABASE = 'bench_leaderboard';
const SCORES = Number(process.env.BENCH_SCORES ?? 1_000_000);
const RANK_LOOKUPS = Number(process.env.BENCH_RANK_LOOKUPS ?? 200);
const TOP_READS = Number(process.env.BENCH_TOP_READS ?? 100);
const COUNTED_READS = Number(process.env.BENCH_COUNTED_READS ?? 100);
const SUBMITS = Number(process.env.BENCH_SUBMITS ?? 200);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 10);
const GAME = 'BenchGame';
const BOARD = 'highscore';
const WEEK_PLAYERS = Math.floor(SCORES / 10);
const KEEP = process.env.BENCH_KEEP === '1';

type Service = ReturnType<typeof createLeaderboardService>;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/** A bench user's id: in the order of their number, so the load appends to the indexes. */
const ID_OF = `lpad(to_hex(g), 32, '0')::uuid`;

/**
 * The rows, as stored before migration 0020 (no triggers), then the backfill. The users'
 * indexes no leaderboard query reads (search, sorting, e-mail) are dropped first, and the rank
 * index is built after the rows (one sort instead of a random insert per row).
 */
async function load(pool: pg.Client): Promise<{ loadMs: number; backfillMs: number }> {
  const started = performance.now();
  await pool.query(
    `insert into games (id, title, section, published) values ($1, 'Bench Game', 'html5', true)`,
    [GAME],
  );
  await pool.query(
    `insert into game_leaderboards (game_id, board, name, sort_order, format)
     values ($1, $2, 'High score', 'desc', 'number')`,
    [GAME, BOARD],
  );
  const unread = await pool.query<{ indexname: string }>(
    `select indexname from pg_indexes where tablename = 'users' and indexname <> 'users_pkey'`,
  );
  for (const { indexname } of unread.rows) {
    await pool.query(`drop index ${indexname}`);
  }
  const rankIndex = await pool.query<{ indexdef: string }>(
    `select indexdef from pg_indexes where indexname = 'game_scores_rank_idx'`,
  );
  await pool.query('drop index game_scores_rank_idx');
  // triggers (and foreign key checks) off on this connection: rows stored before the bins
  await pool.query(`set session_replication_role = replica`);
  await pool.query(`set maintenance_work_mem = '512MB'`);
  // users and scores in slices, so no statement holds the whole load
  const slice = 500_000;
  for (let first = 1; first <= SCORES; first += slice) {
    const last = Math.min(SCORES, first + slice - 1);
    await pool.query(
      `insert into users (id, username, password_hash, created_at)
       select ${ID_OF}, 'player_' || g, 'x', now() from generate_series($1::int, $2::int) as g`,
      [first, last],
    );
    await pool.query(
      `insert into game_scores (game_id, board, period, bucket, user_id, value, rank_key, achieved_at)
       select $3, $4, 'all', '1970-01-01', ${ID_OF}, v, -v,
         timestamptz '2025-11-01' + (hashint4(g * 7) % 31536000 + 31536000) % 31536000 * interval '1 second'
       from (select g, ((hashint4(g) % 10000000 + 10000000) % 10000000)::float8 as v
             from generate_series($1::int, $2::int) as g) as s`,
      [first, last, GAME, BOARD],
    );
    await pool.query(
      `insert into game_scores (game_id, board, period, bucket, user_id, value, rank_key, achieved_at)
       select $3, $4, 'week', date_trunc('week', now())::date, ${ID_OF}, v, -v, now()
       from (select g, ((hashint4(g + 1) % 100000 + 100000) % 100000)::float8 as v
             from generate_series($1::int, $2::int) as g where g % 10 = 0) as s`,
      [first, last, GAME, BOARD],
    );
  }
  await pool.query(rankIndex.rows[0]?.indexdef ?? '');
  await pool.query(`set session_replication_role = origin`);
  await pool.query('vacuum analyze game_scores');
  await pool.query('vacuum analyze users');
  const loadMs = performance.now() - started;
  const backfilled = performance.now();
  await pool.query(
    `select game_score_ranks_rebuild(game_id, board, period, bucket)
     from (select distinct game_id, board, period, bucket from game_scores) b`,
  );
  await pool.query('vacuum analyze game_score_bins');
  await pool.query('vacuum analyze game_score_totals');
  return { loadMs, backfillMs: performance.now() - backfilled };
}

/** What the checks compare with: plain SQL over game_scores. */
function plainSql(pool: pg.Client) {
  return {
    async rank(period: 'all' | 'week', userId: string): Promise<number> {
      const result = await pool.query<{ rank: string }>(
        `select count(*) + 1 as rank from game_scores s, game_scores me
         where me.game_id = $1 and me.board = $2 and me.period = $3 and me.user_id = $4::uuid
           and s.game_id = me.game_id and s.board = me.board and s.period = me.period
           and s.bucket = me.bucket
           and (s.rank_key, s.achieved_at, s.user_id) < (me.rank_key, me.achieved_at, me.user_id)`,
        [GAME, BOARD, period, userId],
      );
      return Number(result.rows[0]?.rank);
    },
    async top(): Promise<string[]> {
      const result = await pool.query<{ username: string }>(
        `select u.username from game_scores s join users u on u.id = s.user_id
         where s.game_id = $1 and s.board = $2 and s.period = 'all'
         order by s.rank_key, s.achieved_at, s.user_id limit 100`,
        [GAME, BOARD],
      );
      return result.rows.map((row) => row.username);
    },
    async total(): Promise<number> {
      const result = await pool.query<{ total: string }>(
        `select count(*) as total from game_scores
         where game_id = $1 and board = $2 and period = 'all'`,
        [GAME, BOARD],
      );
      return Number(result.rows[0]?.total);
    },
  };
}

const userIdOf = (n: number) =>
  n
    .toString(16)
    .padStart(32, '0')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const randomPlayer = () => 1 + Math.floor(Math.random() * SCORES);
const randomWeekPlayer = () => 10 * (1 + Math.floor(Math.random() * WEEK_PLAYERS));

/** Ranks of random players checked against plain SQL. */
async function checkRanks(service: Service, pool: pg.Client, label: string): Promise<void> {
  const plain = plainSql(pool);
  for (let index = 0; index < CHECKS; index += 1) {
    for (const period of ['all', 'week'] as const) {
      const userId = userIdOf(period === 'all' ? randomPlayer() : randomWeekPlayer());
      const found = await service.rank(GAME, BOARD, period, userId);
      const expected = await plain.rank(period, userId);
      if (found?.rank !== expected) {
        throw new Error(`${label}: ${period} rank ${found?.rank} but SQL counts ${expected}`);
      }
    }
  }
}

/** One round of the measures through a service; the rows of the table it prints. */
async function measure(service: Service, pool: pg.Client, label: string): Promise<string[][]> {
  const plain = plainSql(pool);
  // warm-up: the indexes and the users' pages into the cache
  for (let index = 0; index < 20; index += 1) {
    await service.rank(GAME, BOARD, 'all', userIdOf(randomPlayer()));
    await service.readTopUncached(GAME, BOARD, 'all', 100, true);
  }
  await checkRanks(service, pool, label);
  const expectedTop = await plain.top();
  const expectedTotal = await plain.total();

  const timings = { rank: [] as number[], week: [] as number[], top: [] as number[] };
  const counted: number[] = [];
  for (let index = 0; index < RANK_LOOKUPS; index += 1) {
    const userId = userIdOf(randomPlayer());
    timings.rank.push((await time(() => service.rank(GAME, BOARD, 'all', userId))).ms);
    const weekId = userIdOf(randomWeekPlayer());
    timings.week.push((await time(() => service.rank(GAME, BOARD, 'week', weekId))).ms);
  }
  for (let index = 0; index < TOP_READS; index += 1) {
    const read = await time(() => service.readTopUncached(GAME, BOARD, 'all', 100, false));
    timings.top.push(read.ms);
    if (read.result.entries.some((entry, at) => entry.username !== expectedTop[at])) {
      throw new Error(`${label}: the top 100 is not SQL's first 100 rows`);
    }
  }
  for (let index = 0; index < COUNTED_READS; index += 1) {
    const read = await time(() => service.readTopUncached(GAME, BOARD, 'all', 100, true));
    counted.push(read.ms);
    if (read.result.total !== expectedTotal || read.result.entries.length !== 100) {
      throw new Error(`${label}: total ${read.result.total}, SQL counts ${expectedTotal}`);
    }
  }
  const submits: number[] = [];
  for (let index = 0; index < SUBMITS; index += 1) {
    const userId = userIdOf(randomPlayer());
    const value = Math.floor(Math.random() * 10_000_000);
    submits.push((await time(() => service.submit(userId, GAME, BOARD, value))).ms);
  }
  // the bins (and sets) after the submissions: new buckets (today's, this month's) and moves
  await checkRanks(service, pool, `${label} after the submissions`);

  const row = (name: string, samples: number[]) => {
    const summary = summarize(samples);
    return [name, int(summary.count), ms(summary.p50), ms(summary.p95), ms(summary.max)];
  };
  return [
    row(`rank of a random player (all time, ${int(SCORES)})`, timings.rank),
    row(`rank of a random player (week, ${int(WEEK_PLAYERS)})`, timings.week),
    row('top 100 (rows only)', timings.top),
    row('top 100 + player count', counted),
    row('submit a score (4 buckets)', submits),
  ];
}

/** The Redis variant: a service with sets, the first lookup's rebuild timed. */
async function measureWithRedis(pool: pg.Client, dbUrl: string): Promise<string[][]> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefix = `bench-lb-${process.pid}`;
  const database = await openDatabase({ databaseUrl: dbUrl, migrate: false });
  try {
    const service = createLeaderboardService({
      db: database.db,
      redis,
      config: { redisPrefix: prefix },
    });
    const sets = service.sets;
    if (!sets) {
      throw new Error('no Redis sets');
    }
    const built = await time(async () => {
      await service.rank(GAME, BOARD, 'all', userIdOf(1));
      await service.rank(GAME, BOARD, 'week', userIdOf(10));
      await sets.settle();
    });
    const memory = /used_memory_human:(\S+)/.exec(await redis.info('memory'))?.[1] ?? '?';
    console.log(
      `Redis: the two sets rebuilt from PostgreSQL in ${(built.ms / 1000).toFixed(1)} s ` +
        `(Redis memory ${memory})`,
    );
    const rows = await measure(service, pool, 'Redis');
    await sets.close();
    return rows;
  } finally {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    } while (cursor !== '0');
    redis.disconnect();
    await database.close();
  }
}

/** Whether a kept database of BENCH_SCORES all-time scores is there to use. */
async function isKept(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const result = await client.query<{ n: string }>(
      `select count(*) as n from game_scores where period = 'all'`,
    );
    return Number(result.rows[0]?.n) === SCORES;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  const reuse = KEEP && (await isKept(url.toString()));
  if (!reuse) {
    await admin(`drop database if exists ${DATABASE} with (force)`);
    await admin(`create database ${DATABASE}`);
  }
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  // the load and the checks on a connection of their own: the app's pool stops a statement
  // after 15 s
  const pool = new pg.Client({ connectionString: url.toString() });
  try {
    await pool.connect();
    const { loadMs, backfillMs } = reuse ? { loadMs: 0, backfillMs: 0 } : await load(pool);
    console.log(
      `PostgreSQL (${SERVER_URL.replace(/\/\/[^@]*@/, '//')}), ${int(SCORES)} scores on one ` +
        `board (all time) + ${int(WEEK_PLAYERS)} this week; ` +
        (reuse
          ? 'the kept database'
          : `load ${(loadMs / 1000).toFixed(0)} s, bins counted (the migration's backfill) in ` +
            `${(backfillMs / 1000).toFixed(1)} s`),
    );
    const bins = await pool.query<{ period: string; bins: string; largest: number }>(
      `select period, count(*) as bins, max(players) as largest from game_score_bins
       group by period order by period`,
    );
    console.log(
      `bins: ${bins.rows.map((row) => `${row.period} ${row.bins} (at most ${row.largest} rows)`).join(', ')}`,
    );
    const header = ['query', 'n', 'p50', 'p95', 'max'];
    const pgRows = await measure(createLeaderboardService({ db: database.db }), pool, 'PostgreSQL');
    console.log('\nPostgreSQL alone (bins):');
    printTable([header, ...pgRows]);
    if (REDIS_URL) {
      const redisRows = await measureWithRedis(pool, url.toString());
      console.log(`\nWith Redis (${REDIS_URL}):`);
      printTable([header, ...redisRows]);
    }
  } finally {
    await pool.end().catch(() => undefined);
    await database.close();
    if (!KEEP) {
      // with (force): a connection left by a failed run does not keep the database
      await admin(`drop database if exists ${DATABASE} with (force)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
