import { and, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '../../../db/client.js';
import { dailyStats, gameClicksDaily, users } from '../../../db/schema.js';
import type { Day } from '../days.js';

export interface VisitorRow {
  day: Day;
  visitorKey: string;
  isRegistered: boolean;
}

/** Rows per statement: 3 parameters each stays far below PostgreSQL's 65,535 limit. */
const VISITOR_CHUNK = 10_000;

/**
 * total_users for a day row that does not exist yet: carried over from the latest earlier day,
 * or (before any rollup exists) the users table itself. COALESCE evaluates the count only then.
 */
const carriedTotalUsers = (day: SQL) =>
  sql`coalesce((select d.total_users from daily_stats d where d.day < ${day} order by d.day desc limit 1), (select count(*) from users))::int`;

/** Data access for the per-day rollups; every write is one statement. */
export function createAnalyticsRepo(db: Db) {
  return {
    /**
     * Records first visits of the day and adds the newly inserted ones to daily_stats, in one
     * statement: the visitor rows already present (another process, a restart) add nothing.
     */
    async addVisitors(rows: readonly VisitorRow[]): Promise<number> {
      let statements = 0;
      for (let start = 0; start < rows.length; start += VISITOR_CHUNK) {
        const chunk = rows.slice(start, start + VISITOR_CHUNK);
        const values = sql.join(
          chunk.map(
            (row) => sql`(${row.day}::date, ${row.visitorKey}, ${row.isRegistered}::boolean)`,
          ),
          sql`, `,
        );
        statements++;
        await db.execute(sql`
          with input (day, visitor_key, is_registered) as (values ${values}),
          ins as (
            insert into daily_visitors (day, visitor_key, is_registered)
            select day, visitor_key, is_registered from input
            on conflict do nothing
            returning day, is_registered
          )
          insert into daily_stats (day, registered_visitors, anonymous_visitors, total_users)
          select day,
            (count(*) filter (where is_registered))::int,
            (count(*) filter (where not is_registered))::int,
            ${carriedTotalUsers(sql`ins.day`)}
          from ins group by day
          on conflict (day) do update set
            registered_visitors = daily_stats.registered_visitors + excluded.registered_visitors,
            anonymous_visitors = daily_stats.anonymous_visitors + excluded.anonymous_visitors`);
      }
      return statements;
    },

    /** Raises the day's peak of concurrent visitors (never lowers it). */
    async raisePeak(day: Day, peak: number): Promise<void> {
      await db.execute(sql`
        insert into daily_stats (day, peak_concurrent, total_users)
        values (${day}::date, ${peak}, ${carriedTotalUsers(sql`${day}::date`)})
        on conflict (day) do update set
          peak_concurrent = greatest(daily_stats.peak_concurrent, excluded.peak_concurrent)`);
    },

    /** Visitor keys are needed only to count a day's visitors once: older rows are dropped. */
    async forgetVisitorsBefore(day: Day): Promise<void> {
      await db.execute(sql`delete from daily_visitors where day < ${day}::date`);
    },

    /** A user joined (newUsers > 0) or left: the day's total is recounted from the users table. */
    async recordUserCountChange(day: Day, newUsers: number): Promise<void> {
      await db.execute(sql`
        insert into daily_stats (day, new_users, total_users)
        values (${day}::date, ${newUsers}, (select count(*) from ${users})::int)
        on conflict (day) do update set
          new_users = daily_stats.new_users + excluded.new_users,
          total_users = excluded.total_users`);
    },

    async addGameClick(day: Day, gameId: string, isAuthenticated: boolean): Promise<void> {
      await db
        .insert(gameClicksDaily)
        .values({
          day,
          gameId,
          authenticatedClicks: isAuthenticated ? 1 : 0,
          anonymousClicks: isAuthenticated ? 0 : 1,
        })
        .onConflictDoUpdate({
          target: [gameClicksDaily.day, gameClicksDaily.gameId],
          set: {
            authenticatedClicks: sql`${gameClicksDaily.authenticatedClicks} + excluded.authenticated_clicks`,
            anonymousClicks: sql`${gameClicksDaily.anonymousClicks} + excluded.anonymous_clicks`,
          },
        });
    },

    /**
     * Rollup rows from `from` to `to`, plus the latest row before `from` (so totals can be carried
     * into the first days). One index range read.
     */
    async listDays(from: Day, to: Day) {
      return db
        .select()
        .from(dailyStats)
        .where(
          or(
            and(gte(dailyStats.day, from), lte(dailyStats.day, to)),
            eq(
              dailyStats.day,
              sql`(select max(d.day) from daily_stats d where d.day < ${from}::date)`,
            ),
          ),
        )
        .orderBy(dailyStats.day);
    },

    /** Clicks per game over all time (a few rows per game and day). */
    async sumGameClicks() {
      return db
        .select({
          gameId: gameClicksDaily.gameId,
          authenticatedClicks: sql<number>`sum(${gameClicksDaily.authenticatedClicks})::int`,
          anonymousClicks: sql<number>`sum(${gameClicksDaily.anonymousClicks})::int`,
        })
        .from(gameClicksDaily)
        .groupBy(gameClicksDaily.gameId);
    },

    async countUsers(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },
  };
}

export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
