/**
 * Leaderboards at 1,000,000 scores on PostgreSQL: a player's rank (one indexed count) and the
 * top 100, with and without the board's player count.
 *
 *   npm run bench:leaderboard -w @portfolio/server
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_SCORES=1000000 …
 *
 * It creates its own database (`bench_leaderboard`) on that server, applies the migrations,
 * and drops the database at the end, so nothing else there is touched.
 *   1. BENCH_SCORES users and as many best scores on one board's all-time bucket (values spread
 *      0…10,000,000 with ties, times over a year), plus the same users' scores in the current
 *      week's bucket for a tenth of them (another bucket in the same index); then VACUUM ANALYZE,
 *      as autovacuum would after such a load (the count is an index-only scan).
 *   2. Through the service (the queries the routes run), sequentially: 200 rank lookups of random
 *      players, 100 top-100 reads without the count, 50 with it. Answers are checked against SQL.
 */
import { performance } from 'node:perf_hooks';

import pg from 'pg';

import { openDatabase } from '../src/db/client.js';
import { createLeaderboardService } from '../src/modules/leaderboards/service.js';
import { int, ms, printTable, summarize, type Summary } from './lib.js';

const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'bench_leaderboard';
const SCORES = Number(process.env.BENCH_SCORES ?? 1_000_000);
const RANK_LOOKUPS = Number(process.env.BENCH_RANK_LOOKUPS ?? 200);
const TOP_READS = Number(process.env.BENCH_TOP_READS ?? 100);
const COUNTED_READS = Number(process.env.BENCH_COUNTED_READS ?? 50);
const GAME = 'BenchGame';
const BOARD = 'highscore';

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

async function main(): Promise<void> {
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  await admin(`drop database if exists ${DATABASE} with (force)`);
  await admin(`create database ${DATABASE}`);
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  const { db } = database;
  let openClient: pg.Client | undefined;
  try {
    // the load on a connection of its own: the app's pool stops a statement after 15 s
    const pool = new pg.Client({ connectionString: url.toString() });
    await pool.connect();
    openClient = pool;
    const loadStarted = performance.now();
    await pool.query(
      `insert into games (id, title, section, published) values ($1, 'Bench Game', 'html5', true)`,
      [GAME],
    );
    await pool.query(
      `insert into game_leaderboards (game_id, board, name, sort_order, format)
       values ($1, $2, 'High score', 'desc', 'number')`,
      [GAME, BOARD],
    );
    // users and scores in slices, so no statement holds the whole load
    const slice = 100_000;
    for (let first = 1; first <= SCORES; first += slice) {
      const last = Math.min(SCORES, first + slice - 1);
      await pool.query(
        `insert into users (id, username, password_hash, created_at)
         select md5('bench-user-' || g)::uuid, 'player_' || g, 'x', now()
         from generate_series($1::int, $2::int) as g`,
        [first, last],
      );
      await pool.query(
        `insert into game_scores (game_id, board, period, bucket, user_id, value, rank_key, achieved_at)
         select $3, $4, 'all', '1970-01-01', md5('bench-user-' || g)::uuid, v, -v,
           timestamptz '2025-11-01' + (hashint4(g * 7) % 31536000 + 31536000) % 31536000 * interval '1 second'
         from (select g, ((hashint4(g) % 10000000 + 10000000) % 10000000)::float8 as v
               from generate_series($1::int, $2::int) as g) as s`,
        [first, last, GAME, BOARD],
      );
      await pool.query(
        `insert into game_scores (game_id, board, period, bucket, user_id, value, rank_key, achieved_at)
         select $3, $4, 'week', date_trunc('week', now())::date, md5('bench-user-' || g)::uuid,
           v, -v, now()
         from (select g, ((hashint4(g + 1) % 100000 + 100000) % 100000)::float8 as v
               from generate_series($1::int, $2::int) as g where g % 10 = 0) as s`,
        [first, last, GAME, BOARD],
      );
    }
    await pool.query('vacuum analyze game_scores');
    await pool.query('vacuum analyze users');
    const loadMs = performance.now() - loadStarted;

    const service = createLeaderboardService({ db });
    const pick = () => 1 + Math.floor(Math.random() * SCORES);
    const userIdOf = async (n: number) =>
      (await pool.query<{ id: string }>(`select md5('bench-user-' || $1::int)::uuid as id`, [n]))
        .rows[0]?.id ?? '';

    // warm-up: the index and the users' pages into the cache
    for (let index = 0; index < 20; index += 1) {
      await service.rank(GAME, BOARD, 'all', await userIdOf(pick()));
      await service.readTopUncached(GAME, BOARD, 'all', 100, false);
    }

    const rankTimes: number[] = [];
    for (let index = 0; index < RANK_LOOKUPS; index += 1) {
      const userId = await userIdOf(pick());
      const { ms: took, result } = await time(() => service.rank(GAME, BOARD, 'all', userId));
      rankTimes.push(took);
      if (index < 5 && result) {
        // checked against a plain count of better (or equal and earlier) scores
        const check = await pool.query<{ rank: string }>(
          `select count(*) + 1 as rank from game_scores
           where game_id = $1 and board = $2 and period = 'all' and bucket = '1970-01-01'
             and (rank_key < $3 or (rank_key = $3 and (achieved_at, user_id) < ($4, $5::uuid)))`,
          [GAME, BOARD, -result.value, result.achievedAt, userId],
        );
        if (Number(check.rows[0]?.rank) !== result.rank) {
          throw new Error(`rank ${result.rank} but SQL counts ${check.rows[0]?.rank}`);
        }
      }
    }

    const topTimes: number[] = [];
    for (let index = 0; index < TOP_READS; index += 1) {
      const { ms: took, result } = await time(() =>
        service.readTopUncached(GAME, BOARD, 'all', 100, false),
      );
      topTimes.push(took);
      if (result.entries.length !== 100 || result.entries[0]?.rank !== 1) {
        throw new Error('the top 100 is not 100 rows from rank 1');
      }
    }

    const countedTimes: number[] = [];
    for (let index = 0; index < COUNTED_READS; index += 1) {
      const { ms: took, result } = await time(() =>
        service.readTopUncached(GAME, BOARD, 'all', 100, true),
      );
      countedTimes.push(took);
      if (result.total !== SCORES) {
        throw new Error(`total ${result.total}, expected ${SCORES}`);
      }
    }

    const weekTimes: number[] = [];
    for (let index = 0; index < RANK_LOOKUPS; index += 1) {
      const userId = await userIdOf(10 * (1 + Math.floor(Math.random() * (SCORES / 10))));
      weekTimes.push((await time(() => service.rank(GAME, BOARD, 'week', userId))).ms);
    }

    const plan = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers off, timing off)
       select count(*) from game_scores s
       where s.game_id = $1 and s.board = $2 and s.period = 'all' and s.bucket = '1970-01-01'
         and s.rank_key < -5000000::float8`,
      [GAME, BOARD],
    );
    await pool.end();
    openClient = undefined;

    const row = (name: string, summary: Summary) => [
      name,
      int(summary.count),
      ms(summary.p50),
      ms(summary.p95),
      ms(summary.max),
    ];
    console.log(
      `PostgreSQL (${SERVER_URL.replace(/\/\/[^@]*@/, '//')}), ${int(SCORES)} scores on one board ` +
        `(all time) + ${int(SCORES / 10)} this week; load ${(loadMs / 1000).toFixed(0)} s`,
    );
    printTable([
      ['query', 'n', 'p50', 'p95', 'max'],
      row(`rank of a random player (all time, ${int(SCORES)})`, summarize(rankTimes)),
      row(`rank of a random player (week, ${int(SCORES / 10)})`, summarize(weekTimes)),
      row('top 100 (rows only)', summarize(topTimes)),
      row('top 100 + player count', summarize(countedTimes)),
    ]);
    console.log('\nplan of the rank count (half the board before the player):');
    for (const line of plan.rows) {
      console.log(`  ${line['QUERY PLAN']}`);
    }
  } finally {
    await openClient?.end();
    await database.close();
    // with (force): a connection left by a failed run does not keep the database
    await admin(`drop database if exists ${DATABASE} with (force)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
