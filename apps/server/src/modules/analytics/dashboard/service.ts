import type { VisitorStatsResponse } from '@portfolio/types';

import type { DomainEventBus } from '../../../lib/events.js';
import { moduleLogger } from '../../../lib/logger.js';
import type { AdminNotifier } from '../../../lib/admin-notifier.js';
import { addDays, type Day, dayOf } from '../days.js';
import type { AnalyticsRepo, VisitorRow } from './repo.js';
import { getVisitorStats } from './visitor-stats.js';

const log = moduleLogger('analytics');

export { ANALYTICS_WINDOW_DAYS } from './visitor-stats.js';

/**
 * Visitor keys remembered per day to skip repeats without touching the database. Past this, the
 * set starts over: repeats then cost a row in the next batch, and the database still counts each
 * visitor once (ON CONFLICT DO NOTHING).
 */
const MAX_REMEMBERED_VISITORS = 1_000_000;

export interface AnalyticsService {
  /** Hot path, memory only: remembers a visitor's first heartbeat of the day for the next flush. */
  noteVisitor(visitorKey: string, isRegistered: boolean, at: number): void;
  /** Memory only: the flush raises the day's peak when `count` beats what was last written. */
  noteConcurrent(count: number, at: number): void;
  recordGameClick(gameId: string, isAuthenticated: boolean): Promise<void>;
  getVisitorStats(): Promise<VisitorStatsResponse>;
  /** Writes pending visitors and peaks (one statement each) and waits for event-driven writes. */
  flush(): Promise<void>;
  /** Statements issued by the batched heartbeat work, for the benchmark. */
  stats(): { statements: number; pendingVisitors: number };
}

export function createAnalyticsService(deps: {
  repo: AnalyticsRepo;
  events: DomainEventBus;
  notifier: AdminNotifier;
  now?: () => number;
}): AnalyticsService {
  const { repo, notifier } = deps;
  const now = deps.now ?? Date.now;
  const seenByDay = new Map<Day, Set<string>>();
  let pendingVisitors: VisitorRow[] = [];
  const pendingPeaks = new Map<Day, number>();
  const writtenPeaks = new Map<Day, number>();
  let prunedBefore: Day | undefined;
  let statements = 0;
  const inFlight = new Set<Promise<void>>();
  let flushing: Promise<void> = Promise.resolve();

  /** Runs an event-driven write in the background; flush() waits for it. */
  function track(label: string, work: () => Promise<void>) {
    const promise = work()
      .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
      .finally(() => inFlight.delete(promise));
    inFlight.add(promise);
  }

  deps.events.on('user:registered', ({ at }) =>
    track('new user', () => repo.recordUserCountChange(dayOf(at.getTime()), 1)),
  );
  deps.events.on('user:deleted', () =>
    track('deleted user', () => repo.recordUserCountChange(dayOf(now()), 0)),
  );

  /** Keeps only today's and yesterday's memory (heartbeats around midnight may land in either). */
  function forgetOldDays(today: Day) {
    const yesterday = addDays(today, -1);
    for (const map of [seenByDay, writtenPeaks]) {
      for (const day of map.keys()) {
        if (day < yesterday) {
          map.delete(day);
        }
      }
    }
  }

  async function writePending() {
    const today = dayOf(now());
    forgetOldDays(today);
    const yesterday = addDays(today, -1);
    if (prunedBefore !== yesterday) {
      statements++;
      await repo.forgetVisitorsBefore(yesterday);
      prunedBefore = yesterday;
    }
    if (pendingVisitors.length > 0) {
      const rows = pendingVisitors;
      pendingVisitors = [];
      try {
        statements += await repo.addVisitors(rows);
      } catch (error) {
        pendingVisitors = rows.concat(pendingVisitors);
        throw error;
      }
    }
    for (const [day, peak] of [...pendingPeaks]) {
      pendingPeaks.delete(day);
      statements++;
      try {
        await repo.raisePeak(day, peak);
        writtenPeaks.set(day, Math.max(peak, writtenPeaks.get(day) ?? 0));
      } catch (error) {
        pendingPeaks.set(day, Math.max(peak, pendingPeaks.get(day) ?? 0));
        throw error;
      }
    }
  }

  return {
    noteVisitor(visitorKey, isRegistered, at) {
      const day = dayOf(at);
      let seen = seenByDay.get(day);
      if (!seen) {
        seen = new Set();
        seenByDay.set(day, seen);
      }
      if (seen.has(visitorKey)) {
        return;
      }
      if (seen.size >= MAX_REMEMBERED_VISITORS) {
        seen.clear();
      }
      seen.add(visitorKey);
      pendingVisitors.push({ day, visitorKey, isRegistered });
    },

    noteConcurrent(count, at) {
      const day = dayOf(at);
      if (count > (writtenPeaks.get(day) ?? 0) && count > (pendingPeaks.get(day) ?? 0)) {
        pendingPeaks.set(day, count);
      }
    },

    async recordGameClick(gameId, isAuthenticated) {
      const at = now();
      await repo.addGameClick(dayOf(at), gameId, isAuthenticated);
      notifier.toAdmins('game:click', {
        gameId,
        authenticated: isAuthenticated,
        at: new Date(at).toISOString(),
      });
    },

    getVisitorStats: () => getVisitorStats(repo, now),

    flush() {
      const run = flushing.then(async () => {
        await Promise.all(inFlight);
        await writePending();
      });
      // a failed flush is retried by the next one; the chain itself must not stay rejected
      flushing = run.catch(() => undefined);
      return run;
    },

    stats: () => ({ statements, pendingVisitors: pendingVisitors.length }),
  };
}
