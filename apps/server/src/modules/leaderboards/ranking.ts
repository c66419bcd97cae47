import { sql } from 'drizzle-orm';

import type { PlayerScore } from '@portfolio/types/leaderboards';

import { rowsOf } from '../../db/rows.js';
import {
  type Bucket,
  type CachedTop,
  entryOf,
  isoOf,
  type LeaderboardContext,
  type ScoreRow,
} from './context.js';

/*
 * The reads of the rank index that several commands and queries share: the top of a bucket, a
 * player's row with its rank, and the rows around it. A rank is read from the bucket's bins
 * (game_score_bins, kept by triggers with every write: see db/schema.ts) or, with Redis, from
 * the bucket's sorted set (rank-sets.ts); neither counts the rows before the player one by one.
 */

/** The rows of one bucket in a table of them (`alias`: the table's name in the query). */
function scopeOf({ board, period, bucket }: Bucket, alias: string) {
  const table = sql.raw(alias);
  return sql`${table}.game_id = ${board.gameId} and ${table}.board = ${board.board}
    and ${table}.period = ${period} and ${table}.bucket = ${bucket}::date`;
}

/**
 * The `limit` best rows of a bucket from rank 1 (a range of the rank index), and how many
 * players it holds (one row of game_score_totals, in the same query).
 */
export async function readTop(
  { db, now }: LeaderboardContext,
  at: Bucket,
  limit: number,
  withTotal = true,
): Promise<CachedTop> {
  const rows = await rowsOf<ScoreRow & { total?: number | null }>(
    db,
    sql`select s.user_id, u.username, s.value, s.rank_key, s.achieved_at
        ${withTotal ? sql`, (select t.players from game_score_totals t where ${scopeOf(at, 't')}) as total` : sql``}
      from game_scores s join users u on u.id = s.user_id
      where ${scopeOf(at, 's')}
      order by s.rank_key, s.achieved_at, s.user_id
      limit ${limit}`,
  );
  return {
    at: now(),
    entries: rows.map((row, index) => entryOf(at.board, row, index + 1)),
    // no rows, no players
    total: Number(rows[0]?.total ?? 0),
  };
}

/**
 * A player's row in a bucket and its rank from the bins, in one query: `game_score_rank`
 * (migration 0021) adds the players of the bins before the player's bin and a count of the rows
 * of that bin before the player's (a few thousand index entries at most).
 */
async function readRankFromBins(
  { db }: LeaderboardContext,
  at: Bucket,
  userId: string,
): Promise<{ row: ScoreRow; rank: number } | null> {
  const [found] = await rowsOf<ScoreRow & { rank: number }>(
    db,
    sql`select me.user_id, u.username, me.value, me.rank_key, me.achieved_at,
        game_score_rank(me.game_id, me.board, me.period, me.bucket,
          me.rank_key, me.achieved_at, me.user_id) as rank
      from game_scores me join users u on u.id = me.user_id
      where ${scopeOf(at, 'me')} and me.user_id = ${userId}::uuid`,
  );
  return found ? { row: found, rank: Number(found.rank) } : null;
}

/**
 * A player's row in a bucket and its rank. With Redis: the row, its ties reached earlier and
 * the bucket's player count from PostgreSQL (one query), the players with a better score from
 * the bucket's sorted set; the bins answer when the set cannot (missing, being rebuilt, or not
 * the size PostgreSQL says).
 */
export async function readRank(
  ctx: LeaderboardContext,
  at: Bucket,
  userId: string,
): Promise<{ row: ScoreRow; rank: number } | null> {
  const { db, sets } = ctx;
  if (!sets) {
    return readRankFromBins(ctx, at, userId);
  }
  const [found] = await rowsOf<ScoreRow & { ties: number; players: number | null }>(
    db,
    sql`select me.user_id, u.username, me.value, me.rank_key, me.achieved_at,
        (select count(*)::int from game_scores s where ${scopeOf(at, 's')}
          and s.rank_key = me.rank_key
          and (s.achieved_at, s.user_id) < (me.achieved_at, me.user_id)) as ties,
        (select t.players from game_score_totals t where ${scopeOf(at, 't')}) as players
      from game_scores me join users u on u.id = me.user_id
      where ${scopeOf(at, 'me')} and me.user_id = ${userId}::uuid`,
  );
  if (!found) {
    return null;
  }
  const better =
    found.players === null
      ? undefined
      : await sets.countBetter(at, Number(found.rank_key), Number(found.players));
  if (better === undefined) {
    return readRankFromBins(ctx, at, userId);
  }
  return { row: found, rank: better + Number(found.ties) + 1 };
}

/** The rows just before and after a player's (about half the limit each side). */
export async function readAround(
  { db }: LeaderboardContext,
  at: Bucket,
  me: { row: ScoreRow; rank: number },
  limit: number,
): Promise<PlayerScore[]> {
  const { board } = at;
  const before = Math.min(me.rank - 1, Math.floor((limit - 1) / 2));
  const after = limit - 1 - before;
  const position = sql`(${me.row.rank_key}::float8, ${isoOf(me.row.achieved_at)}::timestamptz, ${me.row.user_id}::uuid)`;
  const scope = scopeOf(at, 's');
  const [above, below] = await Promise.all([
    before > 0
      ? rowsOf<ScoreRow>(
          db,
          sql`select s.user_id, u.username, s.value, s.rank_key, s.achieved_at
            from game_scores s join users u on u.id = s.user_id
            where ${scope} and (s.rank_key, s.achieved_at, s.user_id) < ${position}
            order by s.rank_key desc, s.achieved_at desc, s.user_id desc limit ${before}`,
        )
      : Promise.resolve([]),
    after > 0
      ? rowsOf<ScoreRow>(
          db,
          sql`select s.user_id, u.username, s.value, s.rank_key, s.achieved_at
            from game_scores s join users u on u.id = s.user_id
            where ${scope} and (s.rank_key, s.achieved_at, s.user_id) > ${position}
            order by s.rank_key, s.achieved_at, s.user_id limit ${after}`,
        )
      : Promise.resolve([]),
  ]);
  return [
    ...above.reverse().map((row, index) => entryOf(board, row, me.rank - above.length + index)),
    entryOf(board, me.row, me.rank),
    ...below.map((row, index) => entryOf(board, row, me.rank + 1 + index)),
  ];
}
