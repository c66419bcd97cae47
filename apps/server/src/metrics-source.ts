import type { Server } from 'node:http';

import { sql } from 'drizzle-orm';

import type { Deps } from './container.js';
import { rowsOf } from './db/rows.js';
import type { Realtime } from './realtime/socket-server.js';
import type { MetricsSource } from './lib/metrics.js';

const DAY_MS = 86_400_000;

/** Whole days between `lastDay` (YYYY-MM-DD, rolled up) and yesterday. */
function daysBehind(lastDay: string | null, now: number): number {
  const today = Math.floor(now / DAY_MS);
  const yesterday = today - 1;
  if (!lastDay) {
    return 0;
  }
  const last = Math.floor(Date.parse(`${lastDay}T00:00:00Z`) / DAY_MS);
  return Math.max(0, yesterday - last);
}

/** What a running server reports at each scrape (lib/metrics.ts reads it). */
export function collectMetricsSource(parts: {
  deps: Deps;
  server: Server;
  realtime: Realtime;
}): MetricsSource {
  const { deps, server, realtime } = parts;
  return {
    openConnections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    sockets: () => realtime.io.engine.clientsCount,
    async presence() {
      const active = await deps.presence.getActiveUsers();
      return { users: active.authenticated.length, guests: active.anonymous.count };
    },
    runCode() {
      const { active, waiting } = deps.codeRunner.stats;
      return { backend: deps.codeRunner.selectedBackend(), active, waiting };
    },
    analytics() {
      const { events, pending } = deps.collector.stats();
      return { events, pending, rollupFailures: deps.siteAnalytics.rollupFailures().length };
    },
    async rollupLagDays() {
      // the analytics repo's own question (events-repo.ts lastRolledUpDay)
      const [row] = await rowsOf<{ day: string | null }>(
        deps.database.db,
        sql`select max(day)::text as day from analytics_daily
            where filter = '' and filter_value = '' and dimension = 'total'`,
      );
      return daysBehind(row?.day ?? null, Date.now());
    },
    async mailQueue() {
      const rows = await rowsOf<{ status: string; count: number }>(
        deps.database.db,
        sql`select status, count(*)::int as count from mail_outbox
            where status in ('pending', 'failed') group by status`,
      );
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    },
    databasePool: () => deps.database.poolStats(),
  };
}
