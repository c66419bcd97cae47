import { and, asc, eq, sql } from 'drizzle-orm';

import {
  formatScore,
  LEADERBOARD_PERIODS,
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardPeriod,
  type LeaderboardResponse,
  LEADERBOARDS_PER_GAME_MAX,
  periodStartOf,
  type PlayerScore,
  type PutLeaderboardRequest,
  type SubmitScoreResponse,
} from '@portfolio/types/leaderboards';

import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { gameLeaderboardBans, gameLeaderboards, gameScores, users } from '../../db/schema.js';
import { conflict, HttpError, notFound } from '../../lib/errors.js';
import { setBounded } from '../../lib/memoize.js';
import { recordGameAudit } from '../../access/game-audit.js';
import type { Actor } from '../../access/audit.js';
import { gameNotFound } from '../../lib/errors.js';

/*
 * Leaderboards: boards defined per game by the admin, each signed-in player's best score per
 * board and period (one row per period bucket, game_scores), and the board read as the top of a
 * period or the rows around a player. A player's rank is one count over the rank index (the rows
 * of the bucket before theirs); the public top of a board is cached here for a few seconds.
 */

/** How long the public top of a board is kept in memory (a submission here drops it at once). */
export const LEADERBOARD_CACHE_MS = 5_000;
const CACHE_ENTRIES = 500;

type BoardRow = typeof gameLeaderboards.$inferSelect;

interface ScoreRow {
  user_id: string;
  username: string;
  value: number;
  rank_key: number;
  achieved_at: Date | string;
}

const toBoard = (row: BoardRow): Leaderboard => ({
  gameId: row.gameId,
  board: row.board,
  name: row.name,
  order: row.order,
  format: row.format,
  suffix: row.suffix,
  min: row.min,
  max: row.max,
});

const isoOf = (value: Date | string) => new Date(value).toISOString();

/** Smaller is better on every board: a higher-is-better board ranks by the value turned. */
const rankKeyOf = (board: Pick<Leaderboard, 'order'>, value: number) =>
  board.order === 'desc' ? -value : value;

const entryOf = (board: Leaderboard, row: ScoreRow, rank: number): PlayerScore => ({
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
const playerScores = (gameId: string, board: string, userId: string) =>
  and(eq(gameScores.gameId, gameId), eq(gameScores.board, board), eq(gameScores.userId, userId));

/** The username the audit names a player by (their id when the account is gone). */
async function usernameOf(db: Db, userId: string): Promise<string | undefined> {
  const [user] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return user?.username;
}

interface CachedTop {
  at: number;
  entries: PlayerScore[];
  total: number;
}

export function createLeaderboardService(deps: { db: Db; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const topCache = new Map<string, CachedTop>();

  const dropCached = (gameId: string, board: string) => {
    for (const key of topCache.keys()) {
      if (key.startsWith(`${gameId}\u0000${board}\u0000`)) {
        topCache.delete(key);
      }
    }
  };

  async function findBoard(gameId: string, board: string): Promise<Leaderboard> {
    const [row] = await db
      .select()
      .from(gameLeaderboards)
      .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)));
    if (!row) {
      throw new HttpError('NOT_FOUND', `No leaderboard '${board}' in this game`);
    }
    return toBoard(row);
  }

  /** The `limit` best rows of a bucket from rank 1, and how many players it holds. */
  async function readTop(
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
  async function readRank(
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
  async function readAround(
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

  return {
    /** A game's boards, in the order they were made. */
    async list(gameId: string): Promise<Leaderboard[]> {
      const rows = await db
        .select()
        .from(gameLeaderboards)
        .where(eq(gameLeaderboards.gameId, gameId))
        .orderBy(asc(gameLeaderboards.createdAt), asc(gameLeaderboards.board));
      return rows.map(toBoard);
    },

    findBoard,

    /** A player's row and rank in the current bucket of a period (one query), or null. */
    async rank(
      gameId: string,
      boardKey: string,
      period: LeaderboardPeriod,
      userId: string,
    ): Promise<PlayerScore | null> {
      const board = await findBoard(gameId, boardKey);
      const found = await readRank(board, period, periodStartOf(period, new Date(now())), userId);
      return found ? entryOf(board, found.row, found.rank) : null;
    },

    /**
     * The top of a period as stored now, never from the cache, with the player count when asked
     * (the benchmark's measure).
     */
    async readTopUncached(
      gameId: string,
      boardKey: string,
      period: LeaderboardPeriod,
      limit: number,
      withTotal: boolean,
    ): Promise<{ entries: PlayerScore[]; total: number }> {
      const board = await findBoard(gameId, boardKey);
      const bucket = periodStartOf(period, new Date(now()));
      const { entries, total } = await readTop(board, period, bucket, limit, withTotal);
      return { entries, total };
    },

    /** Defines a board or changes one (its scores stay: a changed range applies to new ones). */
    async put(
      gameId: string,
      board: string,
      input: PutLeaderboardRequest,
      actor: Actor,
    ): Promise<{ created: boolean; leaderboard: Leaderboard }> {
      const values = {
        name: input.name ?? board,
        order: input.order,
        format: input.format,
        suffix: input.format === 'suffix' ? (input.suffix ?? '') : '',
        min: input.min ?? null,
        max: input.max ?? null,
      };
      const result = await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(gameLeaderboards)
          .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
          .for('update');
        if (!existing) {
          const [{ count } = { count: 0 }] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(gameLeaderboards)
            .where(eq(gameLeaderboards.gameId, gameId));
          if (Number(count) >= LEADERBOARDS_PER_GAME_MAX) {
            throw conflict(`A game may have at most ${LEADERBOARDS_PER_GAME_MAX} leaderboards`);
          }
          const [row] = await tx
            .insert(gameLeaderboards)
            .values({ gameId, board, ...values })
            .returning();
          if (!row) {
            throw gameNotFound(gameId);
          }
          await recordGameAudit(tx, {
            action: 'leaderboard-save',
            actor,
            gameId,
            detail: `Leaderboard '${values.name}' (${board}) added`,
          });
          return { created: true, leaderboard: toBoard(row) };
        }
        if (existing.order !== values.order) {
          // every stored rank key would be upside down
          await tx
            .update(gameScores)
            .set({ rankKey: sql`-${gameScores.rankKey}` })
            .where(and(eq(gameScores.gameId, gameId), eq(gameScores.board, board)));
        }
        const [row] = await tx
          .update(gameLeaderboards)
          .set(values)
          .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
          .returning();
        if (!row) {
          throw notFound(`No leaderboard '${board}' in this game`);
        }
        await recordGameAudit(tx, {
          action: 'leaderboard-save',
          actor,
          gameId,
          detail: `Leaderboard '${values.name}' (${board}) changed`,
        });
        return { created: false, leaderboard: toBoard(row) };
      });
      dropCached(gameId, board);
      return result;
    },

    /** Deletes a board with its scores and bans. */
    async remove(gameId: string, board: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const deleted = await tx
          .delete(gameLeaderboards)
          .where(and(eq(gameLeaderboards.gameId, gameId), eq(gameLeaderboards.board, board)))
          .returning({ name: gameLeaderboards.name });
        if (!deleted[0]) {
          throw notFound(`No leaderboard '${board}' in this game`);
        }
        await recordGameAudit(tx, {
          action: 'leaderboard-delete',
          actor,
          gameId,
          detail: `Leaderboard '${deleted[0].name}' (${board}) deleted with its scores`,
        });
      });
      dropCached(gameId, board);
    },

    /**
     * Records a score: kept where it beats the player's best of the day, week, month and all
     * time (one statement for the four). Refused outside the board's range or for a banned
     * player. A score equal to the best keeps the earlier time (it ranks ahead).
     */
    async submit(
      userId: string,
      gameId: string,
      boardKey: string,
      value: number,
    ): Promise<SubmitScoreResponse> {
      const board = await findBoard(gameId, boardKey);
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
      const at = new Date(now());
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
        .returning({ period: gameScores.period });
      dropCached(gameId, boardKey);
      const best = await readRank(board, 'all', periodStartOf('all', at), userId);
      if (!best) {
        throw notFound(`No leaderboard '${boardKey}' in this game`);
      }
      return {
        board: boardKey,
        value,
        isBest: changed.some((row) => row.period === 'all'),
        best: publicEntry(entryOf(board, best.row, best.rank), userId),
      };
    },

    /**
     * A board in a period: the top `limit` rows (cached a few seconds), or with around 'me' the
     * rows around the player (and their own row as `me`). Rows name players, never their ids;
     * `viewerId`'s row is marked `you`.
     */
    async read(
      gameId: string,
      boardKey: string,
      options: {
        period: LeaderboardPeriod;
        around: 'top' | 'me';
        limit: number;
        userId?: string | undefined;
        /** The signed-in player reading the board (their row is marked). */
        viewerId?: string | undefined;
      },
    ): Promise<LeaderboardResponse> {
      const board = await findBoard(gameId, boardKey);
      const bucket = periodStartOf(options.period, new Date(now()));
      const key = `${gameId}\u0000${boardKey}\u0000${options.period}\u0000${bucket}\u0000${options.limit}`;
      let top = topCache.get(key);
      if (!top || now() - top.at > LEADERBOARD_CACHE_MS) {
        top = await readTop(board, options.period, bucket, options.limit);
        setBounded(topCache, key, top, CACHE_ENTRIES);
      }
      const base = { leaderboard: board, period: options.period, periodStart: bucket };
      const present = (entries: PlayerScore[]) =>
        entries.map((entry) => publicEntry(entry, options.viewerId));
      if (options.around !== 'me' || !options.userId) {
        return { ...base, entries: present(top.entries), me: null, total: top.total };
      }
      const me = await readRank(board, options.period, bucket, options.userId);
      if (!me) {
        return { ...base, entries: present(top.entries), me: null, total: top.total };
      }
      const entries = await readAround(board, options.period, bucket, me, options.limit);
      return {
        ...base,
        entries: present(entries),
        me: publicEntry(entryOf(board, me.row, me.rank), options.viewerId),
        total: Math.max(top.total, me.rank),
      };
    },

    /** Removes a player's scores from a board (every period). */
    async removeScores(gameId: string, boardKey: string, userId: string, actor: Actor) {
      const board = await findBoard(gameId, boardKey);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(gameScores)
          .where(playerScores(gameId, boardKey, userId))
          .returning({ period: gameScores.period });
        if (removed.length === 0) {
          throw notFound(`That player has no score on ${board.name}`);
        }
        const username = (await usernameOf(tx, userId)) ?? userId;
        await recordGameAudit(tx, {
          action: 'score-remove',
          actor,
          gameId,
          detail: `Score of ${username} removed from '${board.name}'`,
        });
      });
      dropCached(gameId, boardKey);
    },

    /** Bans a player from a board: their scores go, new ones are refused. */
    async ban(gameId: string, boardKey: string, userId: string, actor: Actor): Promise<void> {
      const board = await findBoard(gameId, boardKey);
      await db.transaction(async (tx) => {
        const username = await usernameOf(tx, userId);
        if (username === undefined) {
          throw notFound('No such user');
        }
        await tx
          .insert(gameLeaderboardBans)
          .values({ gameId, board: boardKey, userId, bannedBy: actor?.username ?? 'system' })
          .onConflictDoNothing();
        await tx.delete(gameScores).where(playerScores(gameId, boardKey, userId));
        await recordGameAudit(tx, {
          action: 'player-ban',
          actor,
          gameId,
          detail: `${username} banned from '${board.name}' (scores removed)`,
        });
      });
      dropCached(gameId, boardKey);
    },

    async unban(gameId: string, boardKey: string, userId: string, actor: Actor): Promise<void> {
      const board = await findBoard(gameId, boardKey);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(gameLeaderboardBans)
          .where(
            and(
              eq(gameLeaderboardBans.gameId, gameId),
              eq(gameLeaderboardBans.board, boardKey),
              eq(gameLeaderboardBans.userId, userId),
            ),
          )
          .returning({ userId: gameLeaderboardBans.userId });
        if (!removed[0]) {
          throw notFound('That player is not banned from this leaderboard');
        }
        const username = (await usernameOf(tx, userId)) ?? userId;
        await recordGameAudit(tx, {
          action: 'player-unban',
          actor,
          gameId,
          detail: `${username} may post scores on '${board.name}' again`,
        });
      });
    },

    /** The players banned from a board (the admin page). */
    async listBans(gameId: string, boardKey: string) {
      const rows = await db
        .select({
          userId: gameLeaderboardBans.userId,
          username: users.username,
          bannedAt: gameLeaderboardBans.bannedAt,
          bannedBy: gameLeaderboardBans.bannedBy,
        })
        .from(gameLeaderboardBans)
        .innerJoin(users, eq(users.id, gameLeaderboardBans.userId))
        .where(and(eq(gameLeaderboardBans.gameId, gameId), eq(gameLeaderboardBans.board, boardKey)))
        .orderBy(asc(gameLeaderboardBans.bannedAt));
      return rows.map((row) => ({ ...row, bannedAt: row.bannedAt.toISOString() }));
    },
  };
}

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;
