import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';

import type { LeaderboardPeriod } from '@portfolio/types/leaderboards';

import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { moduleLogger } from '../../lib/logger.js';
import type { Bucket } from './context.js';

/*
 * Redis sorted sets that answer ranks when Redis is configured: one per board and bucket, the
 * player's id as the member scored by the row's rank_key (smaller is better), so the players
 * ahead of a score are one ZCOUNT, O(log n). PostgreSQL stays the source of truth:
 * - a set is written after PostgreSQL committed, and only while it exists: ZADD LT (a better
 *   score wins whatever order two writes arrive in), ZREM for a removal or a ban;
 * - a missing set is rebuilt from PostgreSQL in the background, one process at a time (a lock in
 *   Redis); writes during the rebuild go to the new set too; until it is there, ranks are read
 *   from PostgreSQL's bins (ranking.ts);
 * - a set whose size differs from PostgreSQL's player count is not used, and is rebuilt when it
 *   still differs 10 s later (a user deleted, a write lost while Redis was down);
 * - a board turned or deleted drops its sets; a board made again gets new ones (its creation
 *   time is in the key), and sets nobody writes expire.
 * Ties (the same score, reached earlier) are counted in PostgreSQL (ranking.ts): a set orders
 * one score's members by id, not by time.
 */

const log = moduleLogger('leaderboards');

/** Rows read from PostgreSQL per page of a rebuild. */
const REBUILD_PAGE = 10_000;
/** A rebuild's lock: renewed by each page, so a crashed process's lock goes by itself. */
const REBUILD_LOCK_MS = 60_000;
/** How long a set's size may differ from PostgreSQL's count before it is rebuilt. */
const DRIFT_GRACE_MS = 10_000;
const DAY_MS = 86_400_000;
/** A set nobody writes expires: a day's set two days on, a week's eight, a month's 32. */
const SET_TTL_MS: Record<LeaderboardPeriod, number> = {
  day: 2 * DAY_MS,
  week: 8 * DAY_MS,
  month: 32 * DAY_MS,
  all: 32 * DAY_MS,
};

// KEYS: the board's list of sets, then per bucket its set, the set being rebuilt and the
// rebuild's lock. ARGV: the member, the list's lifetime, then per bucket its score and lifetime.
const RECORD_SCRIPT = `
redis.call('PEXPIRE', KEYS[1], ARGV[2])
for i = 2, #KEYS, 3 do
  local at = (i + 1) / 3 * 2 + 1
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('ZADD', KEYS[i], 'LT', ARGV[at], ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[at + 1])
  end
  if redis.call('EXISTS', KEYS[i + 2]) == 1 then
    redis.call('ZADD', KEYS[i + 1], 'LT', ARGV[at], ARGV[1])
  end
end
return 0
`;

// KEYS: per bucket its set, the set being rebuilt and the rebuild's lock. ARGV: the member.
const FORGET_SCRIPT = `
for i = 1, #KEYS, 3 do
  redis.call('ZREM', KEYS[i], ARGV[1])
  if redis.call('EXISTS', KEYS[i + 2]) == 1 then
    redis.call('ZREM', KEYS[i + 1], ARGV[1])
  end
end
return 0
`;

// KEYS: the board's list of sets. Every set goes, with its rebuild (whose lock goes: it ends
// without renaming).
const CLEAR_SCRIPT = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', key, key .. ':build', key .. ':lock')
end
redis.call('DEL', KEYS[1])
return 0
`;

// KEYS: the lock, the set being rebuilt, the set, the board's list of sets.
// ARGV: the rebuild's token, the lock's lifetime, the list's lifetime.
const START_SCRIPT = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 0
end
redis.call('DEL', KEYS[2])
redis.call('SADD', KEYS[4], KEYS[3])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
return 1
`;

// KEYS: the lock, the set being rebuilt, the set. ARGV: the rebuild's token, the set's lifetime.
const FINISH_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  if redis.call('EXISTS', KEYS[1]) == 0 then
    redis.call('DEL', KEYS[2])
  end
  return 0
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('RENAME', KEYS[2], KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
else
  redis.call('DEL', KEYS[3])
end
redis.call('DEL', KEYS[1])
return 1
`;

type ScriptArg = string | number;
interface Scripts {
  leaderboardRecord(count: number, ...keysAndArgs: ScriptArg[]): Promise<unknown>;
  leaderboardForget(count: number, ...keysAndArgs: ScriptArg[]): Promise<unknown>;
  leaderboardClear(count: number, ...keysAndArgs: ScriptArg[]): Promise<unknown>;
  leaderboardStart(count: number, ...keysAndArgs: ScriptArg[]): Promise<unknown>;
  leaderboardFinish(count: number, ...keysAndArgs: ScriptArg[]): Promise<unknown>;
}

/** A board as its sets are named: a board made again (a new creation time) has new sets. */
export interface SetsBoard {
  gameId: string;
  board: string;
  madeAt: number;
}

export interface RankSets {
  /**
   * How many players of the bucket have a better score than `rankKey`, or undefined when the
   * set cannot say: missing (a rebuild starts), Redis unreachable, or its size is not
   * PostgreSQL's `players` (a write in between, or drift).
   */
  countBetter(bucket: Bucket, rankKey: number, players: number): Promise<number | undefined>;
  /** After PostgreSQL committed a player's better scores (one per bucket). */
  record(
    bucket: SetsBoard & { order: 'desc' | 'asc' },
    userId: string,
    rows: ReadonlyArray<{ period: LeaderboardPeriod; bucket: string; rankKey: number }>,
  ): Promise<void>;
  /** After PostgreSQL committed the removal of a player's scores (a removal or a ban). */
  forget(
    bucket: SetsBoard & { order: 'desc' | 'asc' },
    userId: string,
    rows: ReadonlyArray<{ period: LeaderboardPeriod; bucket: string }>,
  ): Promise<void>;
  /** After a board was turned (its keys negated) or deleted: every set of it goes. */
  clear(board: SetsBoard): Promise<void>;
  /** The set's name in Redis (tests and the benchmark look at it). */
  keyOf(bucket: Bucket): string;
  /** Resolves when the rebuilds in flight have ended. */
  settle(): Promise<void>;
  /** Stops the rebuilds in flight (they end at their next page, unfinished) and waits. */
  close(): Promise<void>;
}

type SetsOrderedBoard = SetsBoard & { order: 'desc' | 'asc' };

interface SetsState {
  db: Db;
  redis: Redis & Scripts;
  prefix: string;
  /** Sets a failed write may have left behind: dropped (and so rebuilt) once Redis answers. */
  lost: Set<string>;
  /** Boards whose sets a failed clear left behind (their lists of sets), likewise. */
  lostBoards: Set<string>;
  /** Sets whose size differed from PostgreSQL's, since when. */
  drifting: Map<string, number>;
  rebuilds: Map<string, Promise<void>>;
  isClosed: boolean;
}

const boardKey = (prefix: string, { gameId, board, madeAt }: SetsBoard) =>
  `${prefix}:lb:${gameId}:${board}:${madeAt}`;
const setKey = (
  prefix: string,
  board: SetsOrderedBoard,
  period: LeaderboardPeriod,
  bucket: string,
) => `${boardKey(prefix, board)}:${board.order}:${period}:${bucket}`;

/** The keys of a board's buckets, three per bucket (the set, its rebuild, the lock). */
const bucketKeys = (
  prefix: string,
  board: SetsOrderedBoard,
  rows: ReadonlyArray<{ period: LeaderboardPeriod; bucket: string }>,
) =>
  rows.flatMap(({ period, bucket }) => {
    const key = setKey(prefix, board, period, bucket);
    return [key, `${key}:build`, `${key}:lock`];
  });

async function dropLost({ redis, lost, lostBoards }: SetsState): Promise<void> {
  for (const list of lostBoards) {
    await redis.leaderboardClear(1, list);
    lostBoards.delete(list);
  }
  if (lost.size > 0) {
    const keys = [...lost];
    await redis.del(...keys);
    keys.forEach((key) => lost.delete(key));
  }
}

interface PageRow {
  user_id: string;
  rank_key: number;
  /** As text: a Date would lose the microseconds the next page starts after. */
  achieved_at: string;
}

/** A page of a bucket's rows in rank order (an index-only range), after `after`. */
function readPage({ db }: SetsState, bucket: Bucket, after: PageRow | undefined) {
  return rowsOf<PageRow>(
    db,
    sql`select user_id, rank_key, achieved_at::text as achieved_at from game_scores
      where game_id = ${bucket.board.gameId} and board = ${bucket.board.board}
        and period = ${bucket.period} and bucket = ${bucket.bucket}::date
        ${
          after
            ? sql`and (rank_key, achieved_at, user_id)
                > (${after.rank_key}::float8, ${after.achieved_at}::timestamptz, ${after.user_id}::uuid)`
            : sql``
        }
      order by rank_key, achieved_at, user_id limit ${REBUILD_PAGE}`,
  );
}

/**
 * A set built again from PostgreSQL under the lock: pages in rank order into `<set>:build`
 * (each page read while the last is written), renamed over the set at the end. A row that moves
 * to a page already read (a better score meanwhile) is written to the new set by its own write,
 * which goes there while the lock is held.
 */
async function rebuildNow(state: SetsState, bucket: Bucket, key: string): Promise<void> {
  const { redis, prefix } = state;
  const token = randomUUID();
  const lock = `${key}:lock`;
  const build = `${key}:build`;
  const board = { gameId: bucket.board.gameId, board: bucket.board.board, madeAt: bucket.madeAt };
  const list = `${boardKey(prefix, board)}:sets`;
  const started = await redis.leaderboardStart(
    4,
    lock,
    build,
    key,
    list,
    token,
    REBUILD_LOCK_MS,
    SET_TTL_MS.all,
  );
  if (started !== 1) {
    return;
  }
  let rows = await readPage(state, bucket, undefined);
  while (rows.length > 0) {
    const next =
      rows.length < REBUILD_PAGE ? Promise.resolve([]) : readPage(state, bucket, rows.at(-1));
    await redis
      .pipeline()
      .zadd(build, 'LT', ...rows.flatMap((row) => [String(Number(row.rank_key)), row.user_id]))
      .pexpire(build, REBUILD_LOCK_MS)
      .pexpire(lock, REBUILD_LOCK_MS)
      .exec();
    rows = await next;
    if (state.isClosed) {
      return;
    }
  }
  await redis.leaderboardFinish(3, lock, build, key, token, SET_TTL_MS[bucket.period]);
}

function rebuild(state: SetsState, bucket: Bucket, key: string): void {
  if (state.isClosed || state.rebuilds.has(key)) {
    return;
  }
  const run = rebuildNow(state, bucket, key)
    .catch((error: unknown) => log.warn({ err: error, key }, 'rank set rebuild failed'))
    .finally(() => state.rebuilds.delete(key));
  state.rebuilds.set(key, run);
}

async function countBetter(
  state: SetsState,
  bucket: Bucket,
  key: string,
  rankKey: number,
  players: number,
): Promise<number | undefined> {
  const { redis, drifting } = state;
  await dropLost(state);
  const replies = await redis
    .multi()
    .zcount(key, '-inf', `(${String(rankKey)}`)
    .zcard(key)
    .exec();
  if (!replies || replies.some(([error]) => error)) {
    return undefined;
  }
  const better = Number(replies[0]?.[1]);
  const size = Number(replies[1]?.[1]);
  if (size === players) {
    drifting.delete(key);
    return better;
  }
  if (size === 0) {
    rebuild(state, bucket, key);
    return undefined;
  }
  // a write between PostgreSQL's answer and this one, or drift: rebuilt if it lasts
  const since = drifting.get(key);
  if (since === undefined) {
    if (drifting.size > 1000) {
      drifting.clear();
    }
    drifting.set(key, Date.now());
  } else if (Date.now() - since > DRIFT_GRACE_MS) {
    drifting.delete(key);
    await redis.del(key);
    rebuild(state, bucket, key);
  }
  return undefined;
}

export function createRankSets(deps: { db: Db; redis: Redis; prefix: string }): RankSets {
  const redis = deps.redis as Redis & Scripts;
  redis.defineCommand('leaderboardRecord', { lua: RECORD_SCRIPT });
  redis.defineCommand('leaderboardForget', { lua: FORGET_SCRIPT });
  redis.defineCommand('leaderboardClear', { lua: CLEAR_SCRIPT });
  redis.defineCommand('leaderboardStart', { lua: START_SCRIPT });
  redis.defineCommand('leaderboardFinish', { lua: FINISH_SCRIPT });
  const state: SetsState = {
    db: deps.db,
    redis,
    prefix: deps.prefix,
    lost: new Set(),
    lostBoards: new Set(),
    drifting: new Map(),
    rebuilds: new Map(),
    isClosed: false,
  };
  const { prefix } = state;
  const keyOf = ({ board, madeAt, period, bucket }: Bucket) =>
    setKey(
      prefix,
      { gameId: board.gameId, board: board.board, madeAt, order: board.order },
      period,
      bucket,
    );
  /** A write that failed leaves its sets to be dropped (and rebuilt) once Redis answers. */
  const writeFailed = (
    board: SetsOrderedBoard,
    rows: ReadonlyArray<{ period: LeaderboardPeriod; bucket: string }>,
    error: unknown,
  ) => {
    rows.forEach((row) => state.lost.add(setKey(prefix, board, row.period, row.bucket)));
    log.warn({ err: error }, 'rank sets not written (dropped when Redis answers)');
  };

  return {
    keyOf,

    async countBetter(bucket, rankKey, players) {
      try {
        return await countBetter(state, bucket, keyOf(bucket), rankKey, players);
      } catch (error) {
        log.debug({ err: error }, 'rank set unreachable, ranks from PostgreSQL');
        return undefined;
      }
    },

    async record(board, userId, rows) {
      if (rows.length === 0) {
        return;
      }
      const keys = [`${boardKey(prefix, board)}:sets`, ...bucketKeys(prefix, board, rows)];
      const scores = rows.flatMap((row) => [String(row.rankKey), SET_TTL_MS[row.period]]);
      try {
        await redis.leaderboardRecord(keys.length, ...keys, userId, SET_TTL_MS.all, ...scores);
      } catch (error) {
        writeFailed(board, rows, error);
      }
    },

    async forget(board, userId, rows) {
      if (rows.length === 0) {
        return;
      }
      const keys = bucketKeys(prefix, board, rows);
      try {
        await redis.leaderboardForget(keys.length, ...keys, userId);
      } catch (error) {
        writeFailed(board, rows, error);
      }
    },

    async clear(board) {
      const list = `${boardKey(prefix, board)}:sets`;
      try {
        await redis.leaderboardClear(1, list);
      } catch (error) {
        state.lostBoards.add(list);
        log.warn({ err: error }, 'rank sets of a board not dropped (dropped when Redis answers)');
      }
    },

    async settle() {
      await Promise.all([...state.rebuilds.values()]);
    },

    async close() {
      state.isClosed = true;
      await Promise.all([...state.rebuilds.values()]);
    },
  };
}
