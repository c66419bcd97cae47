import { sql } from 'drizzle-orm';

import type { Leaderboard, LeaderboardPeriod, PlayerScore } from '@portfolio/types/leaderboards';

import { rowsOf } from '../../db/rows.js';
import {
  type CachedTop,
  entryOf,
  isoOf,
  type LeaderboardContext,
  type ScoreRow,
} from './context.js';

/*
 * The reads of the rank index that several commands and queries share: the top of a bucket, a
 * player's row with its rank, and the rows around it.
 */

/** The `limit` best rows of a bucket from rank 1, and how many players it holds. */
export async function readTop(
  { db, now }: LeaderboardContext,
  board: Leaderboard,
  period: LeaderboardPeriod,
  bucket: string,
  limit: number,
  withTotal = true,
): Promise<CachedTop> {
  const [rows, counted] = await Promise.all([
    rowsOf<ScoreRow>(
      db,
      sql`select s.user_id, u.username, s.value, s.rank_key, s.achieved_at
        from game_scores s join users u on u.id = s.user_id
        where s.game_id = ${board.gameId} and s.board = ${board.board}
          and s.period = ${period} and s.bucket = ${bucket}::date
        order by s.rank_key, s.achieved_at, s.user_id
        limit ${limit}`,
    ),
    withTotal
      ? rowsOf<{ total: number }>(
          db,
          sql`select count(*)::int as total from game_scores
            where game_id = ${board.gameId} and board = ${board.board}
              and period = ${period} and bucket = ${bucket}::date`,
        )
      : Promise.resolve([]),
  ]);
  return {
    at: now(),
    entries: rows.map((row, index) => entryOf(board, row, index + 1)),
    total: Number(counted[0]?.total ?? 0),
  };
}

/**
 * A player's row in a bucket and its rank: one query, counting the rows before it in the rank
 * index: those with a better value (a range of one column, the cheaper count), then those with
 * the same value reached earlier (a tie is usually a few rows).
 */
export async function readRank(
  { db }: LeaderboardContext,
  board: Leaderboard,
  period: LeaderboardPeriod,
  bucket: string,
  userId: string,
): Promise<{ row: ScoreRow; rank: number } | null> {
  const [found] = await rowsOf<ScoreRow & { rank: number }>(
    db,
    sql`select me.user_id, u.username, me.value, me.rank_key, me.achieved_at,
        (select count(*)::int from game_scores s
          where s.game_id = me.game_id and s.board = me.board
            and s.period = me.period and s.bucket = me.bucket and s.rank_key < me.rank_key)
        + (select count(*)::int from game_scores s
          where s.game_id = me.game_id and s.board = me.board
            and s.period = me.period and s.bucket = me.bucket and s.rank_key = me.rank_key
            and (s.achieved_at, s.user_id) < (me.achieved_at, me.user_id))
        + 1 as rank
      from game_scores me join users u on u.id = me.user_id
      where me.game_id = ${board.gameId} and me.board = ${board.board}
        and me.period = ${period} and me.bucket = ${bucket}::date and me.user_id = ${userId}::uuid`,
  );
  return found ? { row: found, rank: Number(found.rank) } : null;
}

/** The rows just before and after a player's (about half the limit each side). */
export async function readAround(
  { db }: LeaderboardContext,
  board: Leaderboard,
  period: LeaderboardPeriod,
  bucket: string,
  me: { row: ScoreRow; rank: number },
  limit: number,
): Promise<PlayerScore[]> {
  const before = Math.min(me.rank - 1, Math.floor((limit - 1) / 2));
  const after = limit - 1 - before;
  const position = sql`(${me.row.rank_key}::float8, ${isoOf(me.row.achieved_at)}::timestamptz, ${me.row.user_id}::uuid)`;
  const scope = sql`s.game_id = ${board.gameId} and s.board = ${board.board}
    and s.period = ${period} and s.bucket = ${bucket}::date`;
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
