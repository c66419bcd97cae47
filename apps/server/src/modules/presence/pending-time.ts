import { sql } from 'drizzle-orm';

import type { Db } from '../../db/client.js';

/** Rows per time-on-site statement (2 parameters each). */
const TIME_CHUNK = 5000;

/**
 * Time on site not yet written, per user id, in milliseconds. Heartbeats add to it (a map
 * update, no statement); `write` adds the whole seconds to `users.total_time_spent`, one
 * statement per 5,000 users, and keeps the sub-second rests.
 */
export function createPendingTime(db: Db, counters: { statements: number }) {
  const pendingMs = new Map<string, number>();

  function add(userId: string, ms: number) {
    if (ms > 0) {
      pendingMs.set(userId, (pendingMs.get(userId) ?? 0) + ms);
    }
  }

  async function write() {
    const rows: Array<{ id: string; seconds: number }> = [];
    for (const [id, ms] of pendingMs) {
      const seconds = Math.floor(ms / 1000);
      if (seconds > 0) {
        rows.push({ id, seconds });
        pendingMs.set(id, ms - seconds * 1000);
      }
    }
    for (let start = 0; start < rows.length; start += TIME_CHUNK) {
      const chunk = rows.slice(start, start + TIME_CHUNK);
      const values = sql.join(
        chunk.map((row) => sql`(${row.id}, ${row.seconds}::bigint)`),
        sql`, `,
      );
      counters.statements++;
      try {
        await db.execute(sql`
          update users set total_time_spent = users.total_time_spent + v.secs
          from (values ${values}) as v (id, secs)
          where users.id = v.id::uuid`);
      } catch (error) {
        // put the seconds back for the next flush
        for (const row of rows.slice(start)) {
          add(row.id, row.seconds * 1000);
        }
        throw error;
      }
    }
    for (const [id, ms] of pendingMs) {
      if (ms === 0) {
        pendingMs.delete(id);
      }
    }
  }

  return {
    add,
    write,
    /** Forgets a deleted user's rest. */
    forget: (userId: string) => pendingMs.delete(userId),
    get users() {
      return pendingMs.size;
    },
  };
}
