import type { LeaderboardPeriod, PutLeaderboardRequest } from '@portfolio/types/leaderboards';

import type { Redis } from 'ioredis';

import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../access/audit.js';
import { banPlayer } from './commands/ban-player.js';
import { putBoard } from './commands/put-board.js';
import { removeBoard } from './commands/remove-board.js';
import { removeScores } from './commands/remove-scores.js';
import { submitScore } from './commands/submit-score.js';
import { unbanPlayer } from './commands/unban-player.js';
import { type CachedTop, findBoard, type LeaderboardContext } from './context.js';
import { listBans } from './queries/list-bans.js';
import { listBoards } from './queries/list-boards.js';
import { playerRank } from './queries/player-rank.js';
import { readBoard, type ReadBoardOptions } from './queries/read-board.js';
import { readTopUncached } from './queries/read-top-uncached.js';
import { createRankSets } from './rank-sets.js';

export { LEADERBOARD_CACHE_MS, publicEntry } from './context.js';

/*
 * Leaderboards: boards defined per game by the admin, each signed-in player's best score per
 * board and period (one row per period bucket, game_scores), and the board read as the top of a
 * period or the rows around a player. A player's rank is read from the bucket's bins (kept in
 * PostgreSQL by triggers) or, with Redis, from the bucket's sorted set (rank-sets.ts); the
 * public top of a board is cached here for a few seconds. One file per command (commands/) and
 * per query (queries/) over a LeaderboardContext; this factory assembles them.
 */
export function createLeaderboardService(deps: {
  db: Db;
  now?: () => number;
  /** Redis, for ranks from sorted sets (from PostgreSQL's bins without), and its keys' prefix. */
  redis?: Redis | undefined;
  config?: Pick<Config, 'redisPrefix'>;
}) {
  const ctx: LeaderboardContext = {
    db: deps.db,
    now: deps.now ?? Date.now,
    topCache: new Map<string, CachedTop>(),
    sets: deps.redis
      ? createRankSets({
          db: deps.db,
          redis: deps.redis,
          prefix: deps.config?.redisPrefix ?? 'portfolio',
        })
      : undefined,
  };
  return {
    /** The Redis sets, when configured (tests and the benchmark look at them). */
    sets: ctx.sets,
    list: (gameId: string) => listBoards(ctx, gameId),
    findBoard: (gameId: string, board: string) => findBoard(ctx, gameId, board),
    rank: (gameId: string, boardKey: string, period: LeaderboardPeriod, userId: string) =>
      playerRank(ctx, gameId, boardKey, period, userId),
    readTopUncached: (
      gameId: string,
      boardKey: string,
      period: LeaderboardPeriod,
      limit: number,
      withTotal: boolean,
    ) => readTopUncached(ctx, gameId, boardKey, period, limit, withTotal),
    put: (gameId: string, board: string, input: PutLeaderboardRequest, actor: Actor) =>
      putBoard(ctx, gameId, board, input, actor),
    remove: (gameId: string, board: string, actor: Actor) => removeBoard(ctx, gameId, board, actor),
    submit: (
      userId: string,
      gameId: string,
      boardKey: string,
      value: number,
      achievedAt?: string,
    ) => submitScore(ctx, userId, gameId, boardKey, value, achievedAt),
    read: (gameId: string, boardKey: string, options: ReadBoardOptions) =>
      readBoard(ctx, gameId, boardKey, options),
    removeScores: (gameId: string, boardKey: string, userId: string, actor: Actor) =>
      removeScores(ctx, gameId, boardKey, userId, actor),
    ban: (gameId: string, boardKey: string, userId: string, actor: Actor) =>
      banPlayer(ctx, gameId, boardKey, userId, actor),
    unban: (gameId: string, boardKey: string, userId: string, actor: Actor) =>
      unbanPlayer(ctx, gameId, boardKey, userId, actor),
    listBans: (gameId: string, boardKey: string) => listBans(ctx, gameId, boardKey),
  };
}

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;
