import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type {
  AuditAction,
  DeviceInfo,
  GameAccess,
  Role,
  TutorialSection,
  TutorialType,
} from '@portfolio/types';
import type { ContentAuditAction, ContentKind } from '@portfolio/types/content';
import type {
  BuildEngine,
  GameAuditAction,
  GameFrameMode,
  GameOrientation,
  GameSection,
  GameTouchSupport,
} from '@portfolio/types/game-host';
import type { PostAuditAction } from '@portfolio/types/devlog';
import type { ChatStatus, GameRoomSettings } from '@portfolio/types/rooms';

export interface StoredDeviceInfo {
  type: string;
  os: string;
  browser: string;
  screenWidth: number;
  screenHeight: number;
  timezone?: string;
  language?: string;
}

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull().default('user'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    totalTimeSpent: bigint('total_time_spent', { mode: 'number' }).notNull().default(0),
    deviceInfo: jsonb('device_info').$type<StoredDeviceInfo>(),
    subscriptionStatus: text('subscription_status'),
    subscriptionStartDate: timestamp('subscription_start_date', { withTimezone: true }),
    subscriptionEndDate: timestamp('subscription_end_date', { withTimezone: true }),
    subscriptionCancelAtPeriodEnd: boolean('subscription_cancel_at_period_end')
      .notNull()
      .default(false),
    /** The user's Stripe customer, made at the first checkout and reused after. */
    stripeCustomerId: text('stripe_customer_id'),
    /** The Stripe subscription the status fields above describe. */
    stripeSubscriptionId: text('stripe_subscription_id'),
    /**
     * Stripe's time of the state stored above (an event's `created`, or an API answer's Date),
     * so an older webhook delivered late never overwrites a newer state.
     */
    subscriptionStateAt: timestamp('subscription_state_at', { withTimezone: true }),
    /**
     * A subscription an admin granted (by setting the role to subscriber), kept apart from
     * Stripe's fields above so no Stripe event undoes it. Null when there is no grant.
     */
    subscriptionGrantedAt: timestamp('subscription_granted_at', { withTimezone: true }),
    /** The admin who granted it (no foreign key: the grant outlives that admin's account). */
    subscriptionGrantedBy: uuid('subscription_granted_by'),
    /** When the grant ends; null for a grant without an end. */
    subscriptionGrantEndsAt: timestamp('subscription_grant_ends_at', { withTimezone: true }),
    /** When the current email was confirmed through its link; null = unconfirmed (never used for mail that matters). */
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** The user turned off non-essential mail (subscription news) on /profile or by an unsubscribe link. */
    mailOptOut: boolean('mail_opt_out').notNull().default(false),
    /** Rooms' chat, site-wide: 'muted' reads and cannot send, 'banned' neither (the admin's). */
    chatStatus: text('chat_status').$type<ChatStatus>().notNull().default('allowed'),
  },
  (table) => [
    check('users_chat_status_check', sql`${table.chatStatus} in ('allowed', 'muted', 'banned')`),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    check('users_role_check', sql`${table.role} in ('user', 'subscriber', 'admin')`),
    uniqueIndex('users_stripe_customer_id_idx').on(table.stripeCustomerId),
    // the admin's user table: substring search on the name (pg_trgm) and one index per sort
    // column, so a page of 50 stays an index scan at 100,000 users (bench/users-list.ts)
    index('users_username_trgm_idx').using('gin', sql`lower(${table.username}) gin_trgm_ops`),
    index('users_role_username_idx').on(table.role, sql`lower(${table.username})`),
    index('users_created_at_idx').on(table.createdAt, table.id),
    // never-signed-in users sort first ascending and last descending
    index('users_last_login_idx').on(table.lastLogin.asc().nullsFirst(), table.id),
    index('users_total_time_spent_idx').on(table.totalTimeSpent, table.id),
  ],
);

/**
 * Role changes and deletions: who did what to whom, and when. Ids are kept without a foreign
 * key and usernames are copied, so an entry outlives the users it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').$type<AuditAction>().notNull(),
    /** Null when no signed-in admin did it (the admin:create command, ADMIN_USERNAME). */
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username').notNull(),
    targetId: uuid('target_id'),
    targetUsername: text('target_username').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
  },
  (table) => [
    index('audit_log_target_idx').on(table.targetId, table.at),
    index('audit_log_actor_idx').on(table.actorId, table.at),
    check(
      'audit_log_action_check',
      sql`${table.action} in ('role-change', 'delete', 'grant-end', '2fa-enable', '2fa-disable', '2fa-recovery-code', 'reset-link', 'chat-status')`,
    ),
  ],
);

/** Server-side sessions. The cookie holds a random token; only its HMAC is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Idle expiry: pushed forward (in batches) while the session is used. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Absolute expiry: never moves. */
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * A user's TOTP secret, encrypted with a key derived from SESSION_SECRET. A row with
 * no `enabledAt` is a setup begun but not confirmed with a code: it does not guard sign-in.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last TOTP time step accepted: a code of this step or earlier is never taken again. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-use recovery codes: only an HMAC of each is kept. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('two_factor_recovery_codes_user_code_idx').on(table.userId, table.codeHash),
  ],
);

/**
 * A login whose password was right, waiting for the second factor: short-lived, single use,
 * bound to its user. The browser holds the random challenge; only its HMAC is stored.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes given against this challenge; it ends at the limit. */
    attempts: integer('attempts').notNull().default(0),
    /** What the login's first step sent, recorded when the login completes. */
    deviceInfo: jsonb('device_info').$type<DeviceInfo>(),
    userAgent: text('user_agent'),
  },
  (table) => [index('login_challenges_expires_at_idx').on(table.expiresAt)],
);

/** One row per UTC day: the rollups the 30-day dashboard reads. */
export const dailyStats = pgTable('daily_stats', {
  day: date('day', { mode: 'string' }).primaryKey(),
  newUsers: integer('new_users').notNull().default(0),
  totalUsers: integer('total_users').notNull().default(0),
  peakConcurrent: integer('peak_concurrent').notNull().default(0),
  registeredVisitors: integer('registered_visitors').notNull().default(0),
  anonymousVisitors: integer('anonymous_visitors').notNull().default(0),
});

/** Distinct visitors of a day, so daily_stats counts each visitor once. */
export const dailyVisitors = pgTable(
  'daily_visitors',
  {
    day: date('day', { mode: 'string' }).notNull(),
    visitorKey: text('visitor_key').notNull(),
    isRegistered: boolean('is_registered').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.visitorKey] })],
);

export const gameClicksDaily = pgTable(
  'game_clicks_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    gameId: text('game_id').notNull(),
    authenticatedClicks: integer('authenticated_clicks').notNull().default(0),
    anonymousClicks: integer('anonymous_clicks').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.gameId] })],
);

/** Stripe webhook events already handled: a redelivered event id has no second effect. */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('stripe_events_received_at_idx').on(table.receivedAt)],
);

/**
 * A player's record of one game, kept by the game SDK: playtime (accrued from the gaps between
 * session calls), the open session's last call, and the game's save.
 */
export const gameStats = pgTable(
  'game_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gameId: text('game_id').notNull(),
    playtimeMs: bigint('playtime_ms', { mode: 'number' }).notNull().default(0),
    lastPlayed: timestamp('last_played', { withTimezone: true }),
    /** The last start or ping of the open play session; null while none is open. */
    sessionLastAt: timestamp('session_last_at', { withTimezone: true }),
    saveData: jsonb('save_data'),
    saveUpdatedAt: timestamp('save_updated_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.gameId] })],
);

/**
 * Save slots 1…9 of a player in a game (`GameSDK.save(data, { slot })`); slot 0 is the save in
 * `game_stats`, the one save games had before slots.
 */
export const gameSaveSlots = pgTable(
  'game_save_slots',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gameId: text('game_id').notNull(),
    slot: integer('slot').notNull(),
    data: jsonb('data'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.gameId, table.slot] }),
    check('game_save_slots_slot_check', sql`${table.slot} between 1 and 9`),
  ],
);

/** Achievements a player unlocked; the first unlock time is kept. */
export const gameAchievements = pgTable(
  'game_achievements',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gameId: text('game_id').notNull(),
    name: text('name').notNull(),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.gameId, table.name] })],
);

/**
 * Shared code-box snippets (`POST /api/snippets`): content-addressed, so the id is a prefix of
 * the hash of the normalised content and sharing the same snippet twice keeps one row.
 */
export const codeSnippets = pgTable('code_snippets', {
  id: text('id').primaryKey(),
  code: text('code').notNull(),
  stdin: text('stdin').notNull().default(''),
  standard: text('standard').notNull(),
  optimization: text('optimization').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The game catalogue: the spec's built-in games and the ones the admin adds. Which
 * build is live is `live_version`; swapping it is one update.
 */
export const games = pgTable(
  'games',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    instructions: text('instructions').notNull().default(''),
    section: text('section').$type<GameSection>().notNull(),
    access: text('access').$type<GameAccess>().notNull().default('public'),
    sortOrder: integer('sort_order').notNull().default(0),
    published: boolean('published').notNull().default(false),
    isBuiltIn: boolean('is_built_in').notNull().default(false),
    isMultiplayer: boolean('is_multiplayer').notNull().default(false),
    serverType: text('server_type'),
    /** A site path (`/assets/games/x.svg`, built-in cards) or `thumbnail.<ext>` on the games origin. */
    thumbnail: text('thumbnail'),
    liveVersion: integer('live_version'),
    /** The viewer's frame: 'default' (the spec's), 'fixed' or 'aspect' size. */
    frameMode: text('frame_mode').$type<GameFrameMode>().notNull().default('default'),
    /** The game's width and height in CSS pixels; set for 'fixed' and 'aspect' only. */
    frameWidth: integer('frame_width'),
    frameHeight: integer('frame_height'),
    touch: text('touch').$type<GameTouchSupport>().notNull().default('playable'),
    orientation: text('orientation').$type<GameOrientation>().notNull().default('any'),
    /** Rooms for this game (issue 38); null: DEFAULT_GAME_ROOM_SETTINGS. */
    roomSettings: jsonb('room_settings').$type<GameRoomSettings>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'games_section_check',
      sql`${table.section} in ('multiplayer', 'gamemaker', 'godot', 'html5')`,
    ),
    check('games_access_check', sql`${table.access} in ('public', 'subscriber')`),
    check(
      'games_frame_check',
      sql`(${table.frameMode} = 'default' and ${table.frameWidth} is null and ${table.frameHeight} is null) or (${table.frameMode} in ('fixed', 'aspect') and ${table.frameWidth} > 0 and ${table.frameHeight} > 0)`,
    ),
    check('games_touch_check', sql`${table.touch} in ('playable', 'keyboard-only')`),
    check('games_orientation_check', sql`${table.orientation} in ('any', 'landscape', 'portrait')`),
  ],
);

/**
 * A game's leaderboards (defined by the admin): how scores compare and show, and the range a valid
 * score must fall in.
 */
export const gameLeaderboards = pgTable(
  'game_leaderboards',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    board: text('board').notNull(),
    name: text('name').notNull(),
    order: text('sort_order').$type<'desc' | 'asc'>().notNull(),
    format: text('format').$type<'number' | 'time' | 'suffix'>().notNull(),
    suffix: text('suffix').notNull().default(''),
    min: doublePrecision('min_value'),
    max: doublePrecision('max_value'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.board] }),
    check('game_leaderboards_order_check', sql`${table.order} in ('desc', 'asc')`),
    check('game_leaderboards_format_check', sql`${table.format} in ('number', 'time', 'suffix')`),
  ],
);

/**
 * A player's best score on a board, one row per period bucket (the day, the ISO week, the month
 * of the score, and all time as 1970-01-01). `rank_key` is the value turned so that smaller is
 * always better (−value on a higher-is-better board): one index serves both orders (the top is a
 * range of it); a rank is read from game_score_bins below.
 */
export const gameScores = pgTable(
  'game_scores',
  {
    gameId: text('game_id').notNull(),
    board: text('board').notNull(),
    period: text('period').$type<'day' | 'week' | 'month' | 'all'>().notNull(),
    bucket: date('bucket', { mode: 'string' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: doublePrecision('value').notNull(),
    rankKey: doublePrecision('rank_key').notNull(),
    achievedAt: timestamp('achieved_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({
      columns: [table.gameId, table.board, table.period, table.bucket, table.userId],
    }),
    index('game_scores_rank_idx').on(
      table.gameId,
      table.board,
      table.period,
      table.bucket,
      table.rankKey,
      table.achievedAt,
      table.userId,
    ),
    foreignKey({
      columns: [table.gameId, table.board],
      foreignColumns: [gameLeaderboards.gameId, gameLeaderboards.board],
    }).onDelete('cascade'),
  ],
);

/**
 * The order statistics of game_scores, per bucket (game, board, period, bucket), kept by the
 * triggers of migration 0020 in the transaction of every write to game_scores (a score, a
 * removal, a ban, a board turned or deleted, a user deleted): the bucket's positions in rank order
 * (rank_key, achieved_at, user_id) cut into bins of consecutive positions, each starting at
 * (lo_key, lo_at, lo_user) and holding `players` rows up to the next bin's start. The first bin
 * starts below every score (−Infinity). A rank is the players of the bins before the player's
 * plus a count inside one bin (a few thousand index entries at most): a sum of a few hundred
 * rows at 1,000,000 scores, instead of a count linear in the rank. Bins are split past twice
 * `game_score_bin_rows()` and merged below a quarter of it.
 */
export const gameScoreBins = pgTable(
  'game_score_bins',
  {
    gameId: text('game_id').notNull(),
    board: text('board').notNull(),
    period: text('period').$type<'day' | 'week' | 'month' | 'all'>().notNull(),
    bucket: date('bucket', { mode: 'string' }).notNull(),
    loKey: doublePrecision('lo_key').notNull(),
    loAt: timestamp('lo_at', { withTimezone: true }).notNull(),
    loUser: uuid('lo_user').notNull(),
    players: integer('players').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'game_score_bins_pk',
      columns: [
        table.gameId,
        table.board,
        table.period,
        table.bucket,
        table.loKey,
        table.loAt,
        table.loUser,
      ],
    }),
    foreignKey({
      columns: [table.gameId, table.board],
      foreignColumns: [gameLeaderboards.gameId, gameLeaderboards.board],
    }).onDelete('cascade'),
  ],
);

/**
 * How many players a bucket holds (the board's player count, one row), kept with the bins. A
 * write locks its bucket's row first, so a bucket's bins change one transaction at a time.
 */
export const gameScoreTotals = pgTable(
  'game_score_totals',
  {
    gameId: text('game_id').notNull(),
    board: text('board').notNull(),
    period: text('period').$type<'day' | 'week' | 'month' | 'all'>().notNull(),
    bucket: date('bucket', { mode: 'string' }).notNull(),
    players: integer('players').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.board, table.period, table.bucket] }),
    foreignKey({
      columns: [table.gameId, table.board],
      foreignColumns: [gameLeaderboards.gameId, gameLeaderboards.board],
    }).onDelete('cascade'),
  ],
);

/** Players an admin banned from a board: their scores are gone and new ones refused. */
export const gameLeaderboardBans = pgTable(
  'game_leaderboard_bans',
  {
    gameId: text('game_id').notNull(),
    board: text('board').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bannedAt: timestamp('banned_at', { withTimezone: true }).notNull().defaultNow(),
    bannedBy: text('banned_by').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.board, table.userId] }),
    foreignKey({
      columns: [table.gameId, table.board],
      foreignColumns: [gameLeaderboards.gameId, gameLeaderboards.board],
    }).onDelete('cascade'),
  ],
);

/**
 * A game's achievement catalogue (defined by the admin). Players' unlocks stay in
 * `game_achievements` under the key; names unlocked before a catalogue existed are shown to the
 * admin as undefined, to adopt.
 */
export const gameAchievementDefs = pgTable(
  'game_achievement_defs',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    points: integer('points').notNull().default(0),
    /** Shown to players only once they have it (its name and description). */
    hidden: boolean('hidden').notNull().default(false),
    /** `achievements/<hash>.<ext>` under the game's folder on the games origin. */
    icon: text('icon'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.key] }),
    check('game_achievement_defs_points_check', sql`${table.points} between 0 and 1000`),
  ],
);

/** Every uploaded build of a game (one folder per version under GAMES_DIR, never changed). */
export const gameBuilds = pgTable(
  'game_builds',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    engine: text('engine').$type<BuildEngine>().notNull(),
    entry: text('entry').notNull(),
    needsThreads: boolean('needs_threads').notNull().default(false),
    files: integer('files').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    compressedBytes: bigint('compressed_bytes', { mode: 'number' }).notNull(),
    /** Files of the upload left out of the build (desktop binaries, `__MACOSX/`…), for the admin. */
    leftOut: jsonb('left_out').$type<string[]>().notNull().default([]),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    /** The uploader's username (copied: the entry outlives the user), 'system' for demo imports. */
    uploadedBy: text('uploaded_by').notNull(),
    /** When it last became live; null if it never was. */
    wentLiveAt: timestamp('went_live_at', { withTimezone: true }),
    /** When it last stopped being live (its files still serve for a while after). */
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    /** Demo imports: a hash of the packaged folder, so a changed demo game is imported again. */
    sourceHash: text('source_hash'),
    /**
     * When an admin deleted it: its files are gone, the row stays so that its number is never
     * given to another build (the games origin caches a version's files as immutable).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.gameId, table.version] })],
);

/**
 * The highest version a deleted game had: a game added again under its id goes on from there,
 * never reusing a number whose files browsers may hold as immutable.
 */
export const retiredGameVersions = pgTable('retired_game_versions', {
  gameId: text('game_id').primaryKey(),
  lastVersion: integer('last_version').notNull(),
});

/** API tokens for build scripts (`Authorization: Bearer …`); only a hash of each is stored. */
export const adminTokens = pgTable(
  'admin_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The admin who made it: the token acts as them, and ends with them (or their admin role). */
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('admin_tokens_token_hash_idx').on(table.tokenHash)],
);

/**
 * Changes to the game catalogue, its builds and the admin tokens: who did what, and when. Kept
 * apart from `audit_log` (whose entries are about users) so each keeps its own shape.
 */
export const gameAuditLog = pgTable(
  'game_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').$type<GameAuditAction>().notNull(),
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username').notNull(),
    /** The game concerned; null for token changes. */
    gameId: text('game_id'),
    /** A short readable description of the change (fields, version, token name). */
    detail: text('detail').notNull().default(''),
  },
  (table) => [index('game_audit_log_game_idx').on(table.gameId, table.at)],
);

/**
 * Mail waiting to be sent, sent, or kept (no SMTP_URL: the admin's outbox). Requests only insert
 * a row; the worker in modules/mail sends it, retrying with backoff, so neither a restart nor an
 * SMTP outage loses a message.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the mail is about (password-reset, email-confirm, payment-failed…). */
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** Extra headers (List-Unsubscribe). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** A message queued twice under one key is queued once (a replayed webhook). */
    dedupeKey: text('dedupe_key'),
    /** pending → sent | kept (no SMTP) | failed (gave up). */
    status: text('status')
      .$type<'pending' | 'sent' | 'kept' | 'failed'>()
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('mail_outbox_dedupe_key_idx').on(table.dedupeKey),
    index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt),
    index('mail_outbox_created_at_idx').on(table.createdAt),
  ],
);

/**
 * Single-use tokens sent by mail or handed over by an admin: password resets and email
 * confirmations. Only a SHA-256 of the token is stored.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').$type<'password-reset' | 'email-confirm'>().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address an email-confirm token confirms (it must still be the user's). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('email_tokens_user_idx').on(table.userId, table.purpose)],
);

/**
 * Devlog posts (modules/devlog). A post is shown when `published` and its `published_at` has come
 * (a later date schedules it). `excerpt` and `body_image` are derived from the body when it is
 * written: the summary and the card image of a post whose author gave none.
 */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** The author's summary; null = the excerpt. */
    summary: text('summary'),
    excerpt: text('excerpt').notNull().default(''),
    /** The first image of the body (site path or https address), if any. */
    bodyImage: text('body_image'),
    coverImage: text('cover_image'),
    gameId: text('game_id').references(() => games.id, { onDelete: 'set null' }),
    published: boolean('published').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('posts_slug_idx').on(table.slug),
    index('posts_published_idx').on(table.published, table.publishedAt),
    index('posts_game_idx').on(table.gameId, table.publishedAt),
  ],
);

/** Every change to a post, with the actor's name and the post's title copied (they outlive both). */
export const postAuditLog = pgTable(
  'post_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').$type<PostAuditAction>().notNull(),
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username').notNull(),
    postId: uuid('post_id'),
    postTitle: text('post_title').notNull(),
    detail: text('detail').notNull().default(''),
  },
  (table) => [index('post_audit_log_at_idx').on(table.at)],
);

export const schema = {
  mailOutbox,
  emailTokens,
  users,
  sessions,
  auditLog,
  dailyStats,
  dailyVisitors,
  gameClicksDaily,
  stripeEvents,
  gameStats,
  gameAchievements,
  codeSnippets,
  games,
  gameBuilds,
  adminTokens,
  gameAuditLog,
  posts,
  postAuditLog,
  gameLeaderboards,
  gameScores,
  gameScoreBins,
  gameScoreTotals,
  gameLeaderboardBans,
  gameAchievementDefs,
  gameSaveSlots,
};

/**
 * Site analytics. The events themselves are in `analytics_events`, a table partitioned
 * by day that drizzle cannot describe: it is created by hand in the migration (0005) and read
 * and written with SQL in modules/analytics/site/events-repo.ts.
 */

/** The day's salt of the cookieless visitor hash; older days' salts are deleted. */
export const analyticsSalts = pgTable('analytics_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/**
 * Daily rollups of the events, one row per day, dimension and value (`total` with value '' for
 * the day's totals; `play` and `locked` per game), unfiltered (filter '') and again under each
 * value of each filter. The dashboard reads these for whole days, with no filter or one.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** '' for the unfiltered figures, else the filter that narrows them (FILTER_COLUMNS). */
    filter: text('filter').notNull(),
    filterValue: text('filter_value').notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull().default(0),
    pageviews: integer('pageviews').notNull().default(0),
    visits: integer('visits').notNull().default(0),
    bounces: integer('bounces').notNull().default(0),
    /** Seconds on page (pages, totals) or of play (games). */
    seconds: bigint('seconds', { mode: 'number' }).notNull().default(0),
    /** Page views whose time is known (the `seconds` above are over these). */
    timed: integer('timed').notNull().default(0),
    bots: integer('bots').notNull().default(0),
  },
  (table) => [
    primaryKey({
      columns: [table.filter, table.filterValue, table.dimension, table.day, table.value],
    }),
    index('analytics_daily_day_idx').on(table.day),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * One rolled-up day's page views and leaves as columns (modules/analytics/site/segments.ts), written
 * with the day's rollups (again if the day is rolled up again): views under two or more filters
 * scan these.
 */
export const analyticsSegments = pgTable('analytics_segments', {
  day: date('day', { mode: 'string' }).primaryKey(),
  data: bytea('data').notNull(),
  /** When `data` was written: a process holding an older copy reads the day again. */
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A resized copy of an uploaded image (media.variants). */
export interface StoredMediaVariant {
  src: string;
  width: number;
  type: string;
}

/**
 * Uploaded media (modules/media): one row per distinct upload, named by the SHA-256 of its bytes
 * (the same file uploaded twice is one row). Files are under MEDIA_DIR: `<sha256>.<ext>` for video
 * and audio as uploaded, `<sha256>-<width>.webp` and `<sha256>-thumb.webp` for images (their
 * original, with its metadata, is not kept).
 */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sha256: text('sha256').notNull(),
    kind: text('kind').$type<'image' | 'video' | 'audio'>().notNull(),
    mime: text('mime').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** The URL items use: the largest image variant, or the file as uploaded. */
    url: text('url').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** Seconds, for video and audio when the container says. */
    durationSeconds: doublePrecision('duration_seconds'),
    variants: jsonb('variants').$type<StoredMediaVariant[]>().notNull().default([]),
    thumbnail: text('thumbnail').notNull(),
    originalName: text('original_name').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('media_sha256_idx').on(table.sha256),
    index('media_created_at_idx').on(table.createdAt),
    check('media_kind_check', sql`${table.kind} in ('image', 'video', 'audio')`),
  ],
);
/*
 * The owner's content: gallery projects, tutorials and the site's texts, edited in
 * the admin's Content section. Seeded once with the spec's content (content_seeds says which
 * seeds ran, so a table the owner emptied stays empty).
 */
export const galleryProjects = pgTable(
  'gallery_projects',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    thumbnail: text('thumbnail').notNull(),
    repositoryLink: text('repository_link'),
    /** MediaItem[] (packages/types gallery.ts), checked on the way in and out. */
    media: jsonb('media').$type<unknown[]>().notNull().default([]),
    position: integer('position').notNull().default(0),
    published: boolean('published').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('gallery_projects_position_idx').on(table.position)],
);

export const tutorials = pgTable(
  'tutorials',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    section: text('section').$type<TutorialSection>().notNull(),
    type: text('type').$type<TutorialType>().notNull(),
    content: text('content').notNull().default(''),
    iframeSrc: text('iframe_src'),
    position: integer('position').notNull().default(0),
    published: boolean('published').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('tutorials_position_idx').on(table.position),
    check('tutorials_section_check', sql`${table.section} in ('cpp', 'unreal')`),
    check('tutorials_type_check', sql`${table.type} in ('code', 'markdown', 'iframe')`),
    check(
      'tutorials_iframe_check',
      sql`(${table.type} = 'iframe') = (${table.iframeSrc} is not null)`,
    ),
  ],
);

/** The site's texts by key ('home': intro and cards, 'site': the name); a missing key = the spec's. */
export const siteContent = pgTable('site_content', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which content seeds have run ('gallery', 'tutorials'): each runs once per database. */
export const contentSeeds = pgTable('content_seeds', {
  name: text('name').primaryKey(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contentAuditLog = pgTable(
  'content_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').$type<ContentKind>().notNull(),
    itemId: text('item_id'),
    action: text('action').$type<ContentAuditAction>().notNull(),
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username').notNull(),
    detail: text('detail').notNull().default(''),
  },
  (table) => [index('content_audit_log_item_idx').on(table.kind, table.itemId, table.at)],
);

/**
 * Chat lines players reported in rooms (issue 38): the line and both names copied, so a report
 * outlives the room (rooms live in memory or Redis) and the accounts.
 */
export const chatReports = pgTable(
  'chat_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: text('game_id').notNull(),
    roomCode: text('room_code').notNull(),
    messageId: text('message_id').notNull(),
    messageText: text('message_text').notNull(),
    messageAt: timestamp('message_at', { withTimezone: true }).notNull(),
    authorUserId: uuid('author_user_id'),
    authorName: text('author_name').notNull(),
    reporterUserId: uuid('reporter_user_id'),
    reporterName: text('reporter_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('chat_reports_created_at_idx').on(table.createdAt),
    // one report per reporter and line
    uniqueIndex('chat_reports_once_idx').on(table.messageId, table.reporterName),
  ],
);
