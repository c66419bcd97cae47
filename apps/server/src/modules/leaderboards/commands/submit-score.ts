import { and, eq, sql } from 'drizzle-orm';

import {
  formatScore,
  LEADERBOARD_PERIODS,
  periodStartOf,
  type SubmitScoreResponse,
} from '@portfolio/types/leaderboards';

import { gameLeaderboardBans, gameScores } from '../../../db/schema.js';
import { HttpError, notFound } from '../../../lib/errors.js';
import { progressTime } from '../../../lib/progress-time.js';
import {
  bucketOf,
  dropCached,
  entryOf,
  findBoardRow,
  type LeaderboardContext,
  publicEntry,
  rankKeyOf,
  setsBoardOf,
  toBoard,
} from '../context.js';
import { readRank } from '../ranking.js';

/**
 * Records a score: kept where it beats the player's best of the day, week, month and all
 * time (one statement for the four; the bins follow in its transaction, by trigger). Refused
 * outside the board's range or for a banned player. A score equal to the best keeps the earlier
 * time (it ranks ahead). With Redis, the buckets' sets take the better scores once committed. A
 * guest's score kept in the account names when it was reached: its period and its place among
 * ties follow that time (never before the board existed, never after now).
 */
export async function submitScore(
  ctx: LeaderboardContext,
  userId: string,
  gameId: string,
  boardKey: string,
  value: number,
  achievedAt?: string,
): Promise<SubmitScoreResponse> {
  const { db, now } = ctx;
  const boardRow = await findBoardRow(ctx, gameId, boardKey);
  const board = toBoard(boardRow);
  if ((board.min !== null && value < board.min) || (board.max !== null && value > board.max)) {
    const range =
      board.min !== null && board.max !== null
        ? `from ${formatScore(board, board.min)} to ${formatScore(board, board.max)}`
        : board.min !== null
          ? `at least ${formatScore(board, board.min)}`
          : `at most ${formatScore(board, board.max ?? 0)}`;
    throw new HttpError(
      'SCORE_OUT_OF_RANGE',
      `A score on ${board.name} must be ${range}; ${formatScore(board, value)} was refused.`,
    );
  }
  const [banned] = await db
    .select({ userId: gameLeaderboardBans.userId })
    .from(gameLeaderboardBans)
    .where(
      and(
        eq(gameLeaderboardBans.gameId, gameId),
        eq(gameLeaderboardBans.board, boardKey),
        eq(gameLeaderboardBans.userId, userId),
      ),
    );
  if (banned) {
    throw new HttpError('BANNED_FROM_LEADERBOARD', `You may not post scores on ${board.name}.`);
  }
  const at = progressTime(achievedAt, new Date(now()), boardRow.createdAt);
  const rankKey = rankKeyOf(board, value);
  const changed = await db
    .insert(gameScores)
    .values(
      LEADERBOARD_PERIODS.map((period) => ({
        gameId,
        board: boardKey,
        period,
        bucket: periodStartOf(period, at),
        userId,
        value,
        rankKey,
        achievedAt: at,
      })),
    )
    .onConflictDoUpdate({
      target: [
        gameScores.gameId,
        gameScores.board,
        gameScores.period,
        gameScores.bucket,
        gameScores.userId,
      ],
      set: {
        value: sql`excluded.value`,
        rankKey: sql`excluded.rank_key`,
        achievedAt: sql`excluded.achieved_at`,
      },
      setWhere: sql`excluded.rank_key < ${gameScores.rankKey}`,
    })
    .returning({
      period: gameScores.period,
      bucket: gameScores.bucket,
      rankKey: gameScores.rankKey,
    });
  dropCached(ctx, gameId, boardKey);
  await ctx.sets?.record(setsBoardOf(boardRow), userId, changed);
  const best = await readRank(ctx, bucketOf(boardRow, 'all', at), userId);
  if (!best) {
    throw notFound(`No leaderboard '${boardKey}' in this game`);
  }
  return {
    board: boardKey,
    value,
    isBest: changed.some((row) => row.period === 'all'),
    best: publicEntry(entryOf(board, best.row, best.rank), userId),
  };
}
