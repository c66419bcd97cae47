import { z } from 'zod';

/*
 * Leaderboards (issue: players' progress). The admin defines boards per game; a signed-in player's
 * best score per board and period is kept with the time it was reached. Periods reset on calendar
 * boundaries in UTC: a day, an ISO week (from Monday), a month, and all time.
 */

export const LEADERBOARD_PERIODS = ['day', 'week', 'month', 'all'] as const;
export const LeaderboardPeriod = z.enum(LEADERBOARD_PERIODS, {
  error: "must be 'day', 'week', 'month' or 'all'",
});
export type LeaderboardPeriod = z.infer<typeof LeaderboardPeriod>;

export const LEADERBOARD_PERIOD_NAMES: Record<LeaderboardPeriod, string> = {
  day: 'Today',
  week: 'This week',
  month: 'This month',
  all: 'All time',
};

/** A board's key, as games name it (`GameSDK.submitScore('highscore', …)`). */
export const LeaderboardKey = z
  .string({ error: 'is required' })
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/,
    'must be 1 to 40 letters, digits, - or _, starting with a letter or digit',
  );

export const LeaderboardOrder = z.enum(['desc', 'asc'], {
  error: "must be 'desc' (higher is better) or 'asc' (lower is better)",
});
export type LeaderboardOrder = z.infer<typeof LeaderboardOrder>;

/** How a score shows: a number, a time (the value in milliseconds) or a number and a suffix. */
export const LeaderboardFormat = z.enum(['number', 'time', 'suffix'], {
  error: "must be 'number', 'time' or 'suffix'",
});
export type LeaderboardFormat = z.infer<typeof LeaderboardFormat>;

/** The largest magnitude a score may have (exact as a double, shown without exponent). */
export const SCORE_MAX_MAGNITUDE = 1e15;
/** Boards per game (a bound on what the admin page lists). */
export const LEADERBOARDS_PER_GAME_MAX = 20;
/** The most rows one leaderboard answer holds. */
export const LEADERBOARD_LIMIT_MAX = 100;

const ScoreBound = z
  .number({ error: 'must be a number' })
  .finite('must be a finite number')
  .min(-SCORE_MAX_MAGNITUDE, `must be at least -${SCORE_MAX_MAGNITUDE}`)
  .max(SCORE_MAX_MAGNITUDE, `must be at most ${SCORE_MAX_MAGNITUDE}`);

/** `PUT /api/admin/games/:id/leaderboards/:board`: defines or changes a board. */
export const PutLeaderboardRequest = z
  .object({
    name: z
      .string({ error: 'must be text' })
      .trim()
      .min(1, 'is required')
      .max(60, 'must be at most 60 characters')
      .optional(),
    order: LeaderboardOrder,
    format: LeaderboardFormat,
    suffix: z
      .string({ error: 'must be text' })
      .trim()
      .max(20, 'must be at most 20 characters')
      .optional(),
    min: ScoreBound.nullable().optional(),
    max: ScoreBound.nullable().optional(),
  })
  .refine((body) => body.format !== 'suffix' || Boolean(body.suffix), {
    path: ['suffix'],
    message: "is required when format is 'suffix'",
  })
  .refine((body) => body.min == null || body.max == null || body.min <= body.max, {
    path: ['max'],
    message: 'must be at least min',
  });
export type PutLeaderboardRequest = z.infer<typeof PutLeaderboardRequest>;

export const Leaderboard = z.object({
  gameId: z.string(),
  board: z.string(),
  name: z.string(),
  order: LeaderboardOrder,
  format: LeaderboardFormat,
  suffix: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type Leaderboard = z.infer<typeof Leaderboard>;

/** `GET /api/games/:id/leaderboards` (public) and the admin's list. */
export const LeaderboardsResponse = z.object({ leaderboards: z.array(Leaderboard) });
export type LeaderboardsResponse = z.infer<typeof LeaderboardsResponse>;

/**
 * When a player's progress happened, for progress kept from playing as a guest (the browser's
 * record of it, carried into the account later): ISO 8601 with its offset. The server takes a
 * time after its own clock as now (a browser's clock may run ahead); without one, it is now.
 */
export const ProgressTime = z.iso.datetime({
  offset: true,
  error: 'must be a date and time (ISO 8601, e.g. 2026-05-01T12:00:00Z)',
});

/** `POST /api/games/:id/scores`: a signed-in player's score. */
export const SubmitScoreRequest = z.object({
  board: LeaderboardKey,
  value: z
    .number({ error: 'must be a number' })
    .finite('must be a finite number')
    .min(-SCORE_MAX_MAGNITUDE, `must be at least -${SCORE_MAX_MAGNITUDE}`)
    .max(SCORE_MAX_MAGNITUDE, `must be at most ${SCORE_MAX_MAGNITUDE}`),
  /** When it was reached, if before now (a guest's score kept); never before the board existed. */
  achievedAt: ProgressTime.optional(),
});
export type SubmitScoreRequest = z.infer<typeof SubmitScoreRequest>;

/**
 * One row of a board as everyone sees it: the player's name, never their user id. The signed-in
 * player's own row says `you: true`.
 */
export const LeaderboardEntry = z.object({
  rank: z.number().int().positive(),
  username: z.string(),
  value: z.number(),
  /** The value as the board shows it ('1:02.500', '1,200 coins'). */
  display: z.string(),
  achievedAt: z.string(),
  you: z.literal(true).optional(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** A row as the admin sees it: with the player's user id, for removing scores and bans. */
export const PlayerScore = LeaderboardEntry.omit({ you: true }).extend({ userId: z.string() });
export type PlayerScore = z.infer<typeof PlayerScore>;

/** `GET /api/admin/games/:id/leaderboards/:board/scores?limit=`: the all-time top. */
export const AdminLeaderboardScoresResponse = z.object({ entries: z.array(PlayerScore) });
export type AdminLeaderboardScoresResponse = z.infer<typeof AdminLeaderboardScoresResponse>;

/** `GET /api/admin/games/:id/leaderboards/:board/scores` query. */
export const AdminLeaderboardScoresQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(LEADERBOARD_LIMIT_MAX, `must be at most ${LEADERBOARD_LIMIT_MAX}`)
    .default(100),
});

/** The answer of a submission: the player's best in each period after it. */
export const SubmitScoreResponse = z.object({
  board: z.string(),
  value: z.number(),
  /** Whether this score became the player's all-time best. */
  isBest: z.boolean(),
  best: LeaderboardEntry,
});
export type SubmitScoreResponse = z.infer<typeof SubmitScoreResponse>;

/** `GET /api/games/:id/leaderboards/:board?period=&around=&limit=` */
export const LeaderboardQuery = z.object({
  period: LeaderboardPeriod.default('all'),
  around: z.enum(['top', 'me'], { error: "must be 'top' or 'me'" }).default('top'),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(LEADERBOARD_LIMIT_MAX, `must be at most ${LEADERBOARD_LIMIT_MAX}`)
    .default(10),
});
export type LeaderboardQuery = z.infer<typeof LeaderboardQuery>;

export const LeaderboardResponse = z.object({
  leaderboard: Leaderboard,
  period: LeaderboardPeriod,
  /** The first day of the period (YYYY-MM-DD, UTC); '1970-01-01' for all time. */
  periodStart: z.string(),
  entries: z.array(LeaderboardEntry),
  /** The signed-in player's own row in the period, when asked with around=me and they have one. */
  me: LeaderboardEntry.nullable(),
  /** Players on the board in this period. */
  total: z.number().int().nonnegative(),
});
export type LeaderboardResponse = z.infer<typeof LeaderboardResponse>;

/** `POST /api/admin/games/:id/leaderboards/:board/bans { userId }` */
export const BanPlayerRequest = z.object({
  userId: z.uuid({ error: 'must be a user id' }),
});
export type BanPlayerRequest = z.infer<typeof BanPlayerRequest>;

export const LeaderboardBan = z.object({
  userId: z.string(),
  username: z.string(),
  bannedAt: z.string(),
  bannedBy: z.string(),
});
export type LeaderboardBan = z.infer<typeof LeaderboardBan>;

/** `GET /api/admin/games/:id/leaderboards/:board/bans` */
export const LeaderboardBansResponse = z.object({ bans: z.array(LeaderboardBan) });
export type LeaderboardBansResponse = z.infer<typeof LeaderboardBansResponse>;

/** `PUT /api/admin/games/:id/leaderboards/:board`'s answer. */
export const PutLeaderboardResponse = z.object({ leaderboard: Leaderboard });
export type PutLeaderboardResponse = z.infer<typeof PutLeaderboardResponse>;

function pad(value: number, length: number): string {
  return String(value).padStart(length, '0');
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * One number format per locale, made once: `toLocaleString` with options makes a new one at
 * every call (~60 µs, 6 ms for a board of 100 rows).
 */
function numberFormatOf(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
    numberFormats.set(locale, format);
  }
  return format;
}

/** A score as its board shows it. */
export function formatScore(
  board: Pick<Leaderboard, 'format' | 'suffix'>,
  value: number,
  locale = 'en-US',
): string {
  if (board.format === 'time') {
    const negative = value < 0;
    const total = Math.round(Math.abs(value));
    const ms = total % 1000;
    const seconds = Math.floor(total / 1000) % 60;
    const minutes = Math.floor(total / 60_000) % 60;
    const hours = Math.floor(total / 3_600_000);
    const clock = hours > 0 ? `${hours}:${pad(minutes, 2)}` : String(minutes);
    return `${negative ? '-' : ''}${clock}:${pad(seconds, 2)}.${pad(ms, 3)}`;
  }
  const number = numberFormatOf(locale).format(value);
  return board.format === 'suffix' && board.suffix ? `${number} ${board.suffix}` : number;
}

/** The first day (UTC, YYYY-MM-DD) of the period that holds `at`; weeks start on Monday. */
export function periodStartOf(period: LeaderboardPeriod, at: Date): string {
  if (period === 'all') {
    return '1970-01-01';
  }
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  if (period === 'month') {
    return `${year}-${pad(month + 1, 2)}-01`;
  }
  const day = new Date(Date.UTC(year, month, at.getUTCDate()));
  if (period === 'week') {
    // getUTCDay: Sunday 0 … Saturday 6; Monday starts the ISO week
    const sinceMonday = (day.getUTCDay() + 6) % 7;
    day.setUTCDate(day.getUTCDate() - sinceMonday);
  }
  return day.toISOString().slice(0, 10);
}
