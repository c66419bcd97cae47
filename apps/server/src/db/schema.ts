import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
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

import type { Role } from '@portfolio/types';

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
  },
  (table) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    check('users_role_check', sql`${table.role} in ('user', 'subscriber', 'admin')`),
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

export const schema = { users, sessions, dailyStats, dailyVisitors, gameClicksDaily };
