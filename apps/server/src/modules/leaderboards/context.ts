import { and, eq } from 'drizzle-orm';

import {
  formatScore,
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardPeriod,
  periodStartOf,
  type PlayerScore,
} from '@portfolio/types/leaderboards';

import type { Db } from '../../db/client.js';
import { gameLeaderboards, gameScores, users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { RankSets } from './rank-sets.js';

/** How long the public top of a board is kept in memory (a submission here drops it at once). */
export const LEADERBOARD_CACHE_MS = 5_000;
export const CACHE_ENTRIES = 500;

export interface CachedTop {
  at: number;
  entries: PlayerScore[];
  total: number;
}

/** What every leaderboard command and query works with. */
export interface LeaderboardContext {
  db: Db;
  now: () => number;
  /** The public top of a board per game, board, period, bucket and limit. */
  topCache: Map<string, CachedTop>;
  /** Redis sorted sets answering ranks, when Redis is configured (never the source of truth). */
  sets: RankSets | undefined;
}

export type BoardRow = typeof gameLeaderboards.$inferSelect;

/**
 * One bucket of a board (a period's scores since its first day) as the rank reads take it: the
 * board, when it was made (a board deleted and made again has new Redis sets), the period and
 * its first day.
 */
export interface Bucket {
  board: Leaderboard;
  madeAt: number;
  period: LeaderboardPeriod;
  bucket: string;
}

/** A board as its Redis sets are named (rank-sets.ts). */
export const setsBoardOf = (row: BoardRow) => ({
  gameId: row.gameId,
  board: row.board,
  madeAt: row.createdAt.getTime(),
  order: row.order,
});

/** The bucket of `period` that holds `at`. */
export const bucketOf = (row: BoardRow, period: LeaderboardPeriod, at: Date): Bucket => ({
  board: toBoard(row),
  madeAt: row.createdAt.getTime(),
  period,
  bucket: periodStartOf(period, at),
});

export interface ScoreRow {
  user_id: string;
  username: string;
  value: number;
  rank_key: number;
  achieved_at: Date | string;
}

export const toBoard = (row: BoardRow): Leaderboard => ({
  gameId: row.gameId,
  board: row.board,
  name: row.name,
  order: row.order,
  format: row.format,
  suffix: row.suffix,
  min: row.min,
  max: row.max,
});

export const isoOf = (value: Date | string) => new Date(value).toISOString();

/** Smaller is better on every board: a higher-is-better board ranks by the value turned. */
export const rankKeyOf = (board: Pick<Leaderboard, 'order'>, value: number) =>
  board.order === 'desc' ? -value : value;

export const entryOf = (board: Leaderboard, row: ScoreRow, rank: number): PlayerScore => ({
  rank,
  userId: row.user_id,
  username: row.username,
  value: Number(row.value),
  display: formatScore(board, Number(row.value)),
  achievedAt: isoOf(row.achieved_at),
});

/**
 * A row as the public board answers it: the user id left out (guests and other players see
 * names only), the viewer's own row marked.
 */
export function publicEntry(
  { userId, ...entry }: PlayerScore,
  viewerId: string | undefined,
): LeaderboardEntry {
  return userId === viewerId ? { ...entry, you: true } : entry;
}

/** A player's scores on one board, every period. */
export const playerScores = (gameId: string, board: string, userId: string) =>
  and(eq(gameScores.gameId, gameId), eq(gameScores.board, board), eq(gameScores.userId, userId));

/** The username the audit names a player by (their id when the account is gone). */
export async function usernameOf(db: Db, userId: string): Promise<string | undefined> {
  const [user] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return user?.username;
}

/** Forgets every cached top of a board (a score or the board changed). */
export function dropCached({ topCache }: LeaderboardContext, gameId: string, board: string) {
  for (const key of topCache.keys()) {
    if (key.startsWith(`${gameId}\u0000${board}\u0000`)) {
      topCache.delete(key);
    }
  }
}

/** A board's row (with when it was defined), or 404. */
export async function findBoardRow(
  { db }: LeaderboardContext,
  gameId: string,
  board: string,
): Promise<BoardRow> {
  const [row] = await db
    .select()
    .from(gameLeaderboards)
    .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)));
  if (!row) {
    throw new HttpError('NOT_FOUND', `No leaderboard '${board}' in this game`);
  }
  return row;
}

export async function findBoard(
  ctx: LeaderboardContext,
  gameId: string,
  board: string,
): Promise<Leaderboard> {
  return toBoard(await findBoardRow(ctx, gameId, board));
}
