import { sql } from 'drizzle-orm';

import { GAME_CATALOGUE } from '@portfolio/types';

import type { Db } from '../../../db/client.js';
import { type StoredDeviceInfo, users } from '../../../db/schema.js';
import { dayOf } from '../days.js';
import { ANALYTICS_WINDOW_DAYS } from './service.js';
import { seededRandom } from '../../../lib/seeded-random.js';

/** Every seeded username starts with this, so a rerun finds (and skips) what it made before. */
export const DEMO_PREFIX = 'demo_';
export const DEMO_USER_COUNT = 150;

const DAY_MS = 24 * 60 * 60 * 1000;

const NAMES = [
  'pixel',
  'nova',
  'rogue',
  'quest',
  'ember',
  'orbit',
  'frost',
  'blaze',
  'echo',
  'drift',
  'atlas',
  'comet',
  'raven',
  'sprite',
  'vector',
];
const DEVICES: StoredDeviceInfo[] = [
  { type: 'desktop', os: 'Windows', browser: 'Chrome', screenWidth: 1920, screenHeight: 1080 },
  { type: 'desktop', os: 'macOS', browser: 'Safari', screenWidth: 2560, screenHeight: 1440 },
  { type: 'desktop', os: 'Linux', browser: 'Firefox', screenWidth: 1920, screenHeight: 1080 },
  { type: 'mobile', os: 'Android', browser: 'Chrome', screenWidth: 412, screenHeight: 915 },
  { type: 'tablet', os: 'iOS', browser: 'Safari', screenWidth: 820, screenHeight: 1180 },
];
/** Relative popularity of the catalogue games in the demo clicks. */
const GAME_WEIGHT: Record<string, number> = {
  WolfScape: 1.6,
  RocketGame: 1.3,
  TopDownRogueLike: 1.1,
  MainQuest2: 0.8,
  CoopAdventure: 0.7,
  CompMultiplayerUCCS: 0.5,
  Pong: 0.6,
};

export interface SeedSummary {
  usersCreated: number;
  daysWritten: number;
  gameRows: number;
}

/**
 * Fills the last 30 days with demo users, visits and game clicks. Users are inserted once (a
 * rerun skips existing `demo_` names); rollups take the larger of stored and demo values, so real
 * numbers are never lowered and reruns change nothing. Today only gets its user counts: today's
 * visitors are the live server's.
 */
export async function seedDemoData(
  db: Db,
  options: { passwordHash: string; now?: number },
): Promise<SeedSummary> {
  const now = options.now ?? Date.now();
  const today = dayOf(now);
  const next = seededRandom(20_260_101);

  // ---- users: created over the last 90 days, a third of them inside the 30-day window ----
  const rows = Array.from({ length: DEMO_USER_COUNT }, (_, index) => {
    const daysAgo =
      index < 100 ? next() * ANALYTICS_WINDOW_DAYS : ANALYTICS_WINDOW_DAYS + next() * 60;
    const createdAt = new Date(now - daysAgo * DAY_MS);
    const isSubscriber = next() < 0.12;
    const hasLoggedIn = next() < 0.85;
    const device = DEVICES[Math.floor(next() * DEVICES.length)] ?? DEVICES[0];
    return {
      username: `${DEMO_PREFIX}${NAMES[index % NAMES.length]}_${String(index + 1).padStart(3, '0')}`,
      email: null,
      passwordHash: options.passwordHash,
      role: isSubscriber ? ('subscriber' as const) : ('user' as const),
      createdAt,
      lastLogin: hasLoggedIn
        ? new Date(Math.min(now, createdAt.getTime() + next() * daysAgo * DAY_MS))
        : null,
      // a long tail: most users stay minutes, a few stay for hours
      totalTimeSpent: hasLoggedIn ? Math.round(300 + next() ** 3 * 20 * 3600) : 0,
      deviceInfo: device ?? null,
      subscriptionStatus: isSubscriber ? 'active' : null,
      subscriptionStartDate: isSubscriber ? createdAt : null,
      subscriptionEndDate: isSubscriber ? new Date(createdAt.getTime() + 91 * DAY_MS) : null,
    };
  });
  const inserted = await db
    .insert(users)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: users.id });

  // ---- daily rollups: user counts from the users table, visits with a weekly shape ----
  let daysWritten = 0;
  let gameRows = 0;
  for (let daysAgo = ANALYTICS_WINDOW_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const day = dayOf(now - daysAgo * DAY_MS);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const isWeekend = weekday === 0 || weekday === 6;
    // weekends busier, a gentle upward trend over the month, some noise
    const level =
      (isWeekend ? 1.35 : 1) * (1 + (ANALYTICS_WINDOW_DAYS - daysAgo) / 90) * (0.85 + next() * 0.3);
    const registered = day === today ? 0 : Math.round(22 * level);
    const anonymous = day === today ? 0 : Math.round(64 * level);
    const peak =
      day === today
        ? 0
        : Math.max(2, Math.round((registered + anonymous) * (0.08 + next() * 0.06)));
    await db.execute(sql`
      insert into daily_stats (day, new_users, total_users, peak_concurrent, registered_visitors, anonymous_visitors)
      values (
        ${day}::date,
        (select count(*) from users where created_at >= ${day}::date and created_at < ${day}::date + 1)::int,
        (select count(*) from users where created_at < ${day}::date + 1)::int,
        ${peak}, ${registered}, ${anonymous})
      on conflict (day) do update set
        new_users = excluded.new_users,
        total_users = excluded.total_users,
        peak_concurrent = greatest(daily_stats.peak_concurrent, excluded.peak_concurrent),
        registered_visitors = greatest(daily_stats.registered_visitors, excluded.registered_visitors),
        anonymous_visitors = greatest(daily_stats.anonymous_visitors, excluded.anonymous_visitors)`);
    daysWritten++;
    if (day === today) {
      continue;
    }
    for (const game of GAME_CATALOGUE) {
      const weight = GAME_WEIGHT[game.id] ?? 1;
      // multiplayer and subscriber games need an account, so their clicks lean registered
      const registeredShare = game.isMultiplayer || game.access === 'subscriber' ? 0.75 : 0.35;
      const clicks = Math.round((registered + anonymous) * 0.18 * weight * (0.7 + next() * 0.6));
      const authenticated = Math.round(clicks * registeredShare);
      await db.execute(sql`
        insert into game_clicks_daily (day, game_id, authenticated_clicks, anonymous_clicks)
        values (${day}::date, ${game.id}, ${authenticated}, ${clicks - authenticated})
        on conflict (day, game_id) do update set
          authenticated_clicks = greatest(game_clicks_daily.authenticated_clicks, excluded.authenticated_clicks),
          anonymous_clicks = greatest(game_clicks_daily.anonymous_clicks, excluded.anonymous_clicks)`);
      gameRows++;
    }
  }
  return { usersCreated: inserted.length, daysWritten, gameRows };
}
