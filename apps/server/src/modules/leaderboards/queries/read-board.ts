import type {
  LeaderboardPeriod,
  LeaderboardResponse,
  PlayerScore,
} from '@portfolio/types/leaderboards';

import { setBounded } from '../../../lib/memoize.js';
import {
  bucketOf,
  CACHE_ENTRIES,
  entryOf,
  findBoardRow,
  LEADERBOARD_CACHE_MS,
  type LeaderboardContext,
  publicEntry,
} from '../context.js';
import { readAround, readRank, readTop } from '../ranking.js';

export interface ReadBoardOptions {
  period: LeaderboardPeriod;
  around: 'top' | 'me';
  limit: number;
  userId?: string | undefined;
  /** The signed-in player reading the board (their row is marked). */
  viewerId?: string | undefined;
}

/**
 * A board in a period: the top `limit` rows (cached a few seconds), or with around 'me' the
 * rows around the player (and their own row as `me`). Rows name players, never their ids;
 * `viewerId`'s row is marked `you`.
 */
export async function readBoard(
  ctx: LeaderboardContext,
  gameId: string,
  boardKey: string,
  options: ReadBoardOptions,
): Promise<LeaderboardResponse> {
  const { now, topCache } = ctx;
  const at = bucketOf(await findBoardRow(ctx, gameId, boardKey), options.period, new Date(now()));
  const { board, bucket } = at;
  const key = `${gameId}\u0000${boardKey}\u0000${options.period}\u0000${bucket}\u0000${options.limit}`;
  let top = topCache.get(key);
  if (!top || now() - top.at > LEADERBOARD_CACHE_MS) {
    top = await readTop(ctx, at, options.limit);
    setBounded(topCache, key, top, CACHE_ENTRIES);
  }
  const base = { leaderboard: board, period: options.period, periodStart: bucket };
  const present = (entries: PlayerScore[]) =>
    entries.map((entry) => publicEntry(entry, options.viewerId));
  if (options.around !== 'me' || !options.userId) {
    return { ...base, entries: present(top.entries), me: null, total: top.total };
  }
  const me = await readRank(ctx, at, options.userId);
  if (!me) {
    return { ...base, entries: present(top.entries), me: null, total: top.total };
  }
  const entries = await readAround(ctx, at, me, options.limit);
  return {
    ...base,
    entries: present(entries),
    me: publicEntry(entryOf(board, me.row, me.rank), options.viewerId),
    total: Math.max(top.total, me.rank),
  };
}
