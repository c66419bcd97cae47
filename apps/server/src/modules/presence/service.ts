import { createHmac } from 'node:crypto';

import { sql } from 'drizzle-orm';

import type { ActiveUsersResponse, CurrentUser } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import type { DomainEventBus } from '../../lib/events.js';
import { memoizeBounded } from '../../lib/memoize.js';
import type { AdminNotifier } from '../../lib/admin-notifier.js';
import type { AnalyticsService } from '../analytics/index.js';
import {
  ACTIVE_WINDOW_MS,
  MAX_HEARTBEAT_GAP_MS,
  type PresenceEntry,
  type PresenceStore,
  userPresenceKey,
} from './presence-store.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('presence');

/** Admins get at most one presence push per this interval, however many heartbeats arrive. */
export const PRESENCE_PUSH_INTERVAL_MS = 1000;

/** Rows per time-on-site statement (2 parameters each). */
const TIME_CHUNK = 5000;

/** What a heartbeat says, signed in or not. */
export interface Heartbeat {
  currentPage: string;
  /** The game open in the viewer. */
  game?: string | undefined;
  /** The browser's random id: a guest's key; a signed-in user's replaces that guest's entry. */
  visitorId?: string | undefined;
  /** The page load that beat, so its leave spares a newer page (see `PageLoadId`). */
  tab?: string | undefined;
}

export interface GuestHeartbeat extends Heartbeat {
  /** Used only (hashed) when the browser sent no visitor id. */
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface PresenceService {
  /**
   * Hot path: one store call, no database statement, no session write. `visitorId`: the
   * browser's guest id, whose guest entry the signed-in user replaces.
   */
  heartbeatUser(user: CurrentUser, input: Heartbeat): Promise<void>;
  heartbeatGuest(input: GuestHeartbeat): Promise<void>;
  /**
   * The browser's last tab closed: its entry (the user's, else the guest's) leaves
   * Live Activity now and admins are told at once, unless another page load `tab` of this
   * visitor has beaten since (the tab went on to another page of the site).
   */
  leave(userId: string | undefined, visitorId: string | undefined, tab?: string): Promise<void>;
  /** Active visitors per game open in their viewer. */
  countPlaying(): Promise<Map<string, number>>;
  getActiveUsers(): Promise<ActiveUsersResponse>;
  /** Writes accumulated time on site, one statement per 5,000 users; sub-second rests stay. */
  flush(): Promise<void>;
  /** Counters for the benchmark: heartbeats served and statements the heartbeat path caused. */
  stats(): { heartbeats: number; statements: number; pendingUsers: number };
  /** Stops push timers (the flush is separate, so it can run last). */
  close(): void;
}

/** The spec's active-users shape from store entries. */
export function toActiveUsersResponse(entries: readonly PresenceEntry[]): ActiveUsersResponse {
  const authenticated = entries
    .filter((entry) => entry.kind === 'user')
    .sort((a, b) => b.lastSeen - a.lastSeen)
    .map((entry) => ({
      username: entry.username ?? '',
      role: entry.role ?? 'user',
      current_page: entry.currentPage,
      last_seen: new Date(entry.lastSeen).toISOString(),
    }));
  const currentPages: Record<string, number> = {};
  let guests = 0;
  for (const entry of entries) {
    if (entry.kind === 'anonymous') {
      guests++;
      currentPages[entry.currentPage] = (currentPages[entry.currentPage] ?? 0) + 1;
    }
  }
  return {
    authenticated,
    anonymous: { count: guests, currentPages },
    totalActive: authenticated.length + guests,
  };
}

export function createPresenceService(deps: {
  store: PresenceStore;
  db: Db;
  analytics: AnalyticsService;
  notifier: AdminNotifier;
  events: DomainEventBus;
  /** Keys guest ids so raw ids and addresses are never stored. */
  secret: string;
  now?: () => number;
}): PresenceService {
  const { store, db, analytics, notifier } = deps;
  const now = deps.now ?? Date.now;
  /** Milliseconds on site not yet written, per user id. */
  const pendingMs = new Map<string, number>();
  const counters = { heartbeats: 0, statements: 0 };
  let flushing: Promise<void> = Promise.resolve();
  let isClosed = false;

  const keyedHash = (value: string) =>
    createHmac('sha256', deps.secret).update(value).digest('base64url').slice(0, 32);
  // guests send the same visitor id (at most 64 characters) every 30 s: remember its keyed hash
  const visitorHash = memoizeBounded(keyedHash, 100_000);

  // ---- coalesced pushes to admins --------------------------------------------------------
  let pushTimer: NodeJS.Timeout | undefined;
  let expiryTimer: NodeJS.Timeout | undefined;
  let lastPushAt = Number.NEGATIVE_INFINITY;

  /** Leading-edge throttle: an isolated change goes out at once, a stream at most once a second. */
  function schedulePush() {
    if (pushTimer || isClosed) {
      return;
    }
    const wait = Math.max(0, lastPushAt + PRESENCE_PUSH_INTERVAL_MS - Date.now());
    pushTimer = setTimeout(() => void push(), wait);
    pushTimer.unref();
  }

  async function push() {
    pushTimer = undefined;
    lastPushAt = Date.now();
    const at = now();
    try {
      if (!notifier.hasAudience()) {
        analytics.noteConcurrent(await store.countActive(at), at);
        return;
      }
      const entries = await store.listActive(at);
      analytics.noteConcurrent(entries.length, at);
      notifier.toAdmins('presence:update', toActiveUsersResponse(entries));
      scheduleExpiryPush(entries, at);
    } catch (error) {
      log.error({ err: error }, 'push failed');
    }
  }

  /** Visitors also leave silently: push again when the oldest entry drops out of the window. */
  function scheduleExpiryPush(entries: readonly PresenceEntry[], at: number) {
    clearTimeout(expiryTimer);
    expiryTimer = undefined;
    if (entries.length === 0 || isClosed) {
      return;
    }
    // a loop, not Math.min(...): tens of thousands of visitors would overflow the call's arguments
    let oldest = Number.POSITIVE_INFINITY;
    for (const entry of entries) {
      oldest = Math.min(oldest, entry.lastSeen);
    }
    expiryTimer = setTimeout(schedulePush, Math.max(0, oldest + ACTIVE_WINDOW_MS - at) + 50);
    expiryTimer.unref();
  }

  notifier.onAdminJoined(() => schedulePush());

  function removeEntry(key: string) {
    store
      .remove(key)
      .then(schedulePush, (error: unknown) => log.error({ err: error }, 'remove failed'));
  }

  deps.events.on('user:deleted', ({ userId }) => {
    pendingMs.delete(userId);
    removeEntry(userPresenceKey(userId));
  });
  // a signed-out user leaves the live list now, not 75 s later (their time so far is kept)
  deps.events.on('user:logged-out', ({ userId }) => removeEntry(userPresenceKey(userId)));

  const guestKey = (visitorId: string) => `anon:${visitorHash(`visitor:${visitorId}`)}`;
  /**
   * Guest keys already replaced by a signed-in user, so the removal costs one store call per
   * sign-in, not one per heartbeat. A guest heartbeat from that browser (after sign-out) clears it.
   */
  const replacedGuests = new Set<string>();
  function markReplaced(key: string) {
    if (replacedGuests.size >= 100_000) {
      const oldest = replacedGuests.values().next();
      if (!oldest.done) {
        replacedGuests.delete(oldest.value);
      }
    }
    replacedGuests.add(key);
  }

  // ---- time on site --------------------------------------------------------------------
  function addTime(userId: string, ms: number) {
    if (ms > 0) {
      pendingMs.set(userId, (pendingMs.get(userId) ?? 0) + ms);
    }
  }

  async function writeTime() {
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
          addTime(row.id, row.seconds * 1000);
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

  // ---- heartbeats --------------------------------------------------------------------------
  return {
    async heartbeatUser(user, { currentPage, visitorId, game, tab }) {
      counters.heartbeats++;
      const at = now();
      const key = userPresenceKey(user.id);
      if (visitorId) {
        const guest = guestKey(visitorId);
        if (!replacedGuests.has(guest)) {
          markReplaced(guest);
          // the same browser as a guest a moment ago: one person, not two
          await store.remove(guest);
        }
      }
      const entry: PresenceEntry = {
        key,
        kind: 'user',
        userId: user.id,
        username: user.username,
        role: user.role,
        currentPage,
        lastSeen: at,
      };
      // set only when present (no spread: this runs on every heartbeat)
      if (game) {
        entry.game = game;
      }
      if (tab) {
        entry.tab = tab;
      }
      const previous = await store.touch(entry);
      // the entry is per user, so several tabs share one clock: their heartbeats never double-count
      if (previous !== null) {
        addTime(user.id, Math.min(Math.max(0, at - previous), MAX_HEARTBEAT_GAP_MS));
      }
      analytics.noteVisitor(key, true, at);
      schedulePush();
    },

    async heartbeatGuest(input) {
      counters.heartbeats++;
      const at = now();
      const key = input.visitorId
        ? guestKey(input.visitorId)
        : // rare (no storage in the browser): hashed at once, never kept raw, not memoised (a
          // user agent can be 16 KB); the agent's first 256 characters tell browsers apart
          `anon:ip:${keyedHash(`ip:${input.ip ?? ''}\n${(input.userAgent ?? '').slice(0, 256)}`)}`;
      replacedGuests.delete(key);
      const entry: PresenceEntry = {
        key,
        kind: 'anonymous',
        currentPage: input.currentPage,
        lastSeen: at,
      };
      if (input.game) {
        entry.game = input.game;
      }
      if (input.tab) {
        entry.tab = input.tab;
      }
      await store.touch(entry);
      analytics.noteVisitor(key, false, at);
      schedulePush();
    },

    async leave(userId, visitorId, tab) {
      const key = userId ? userPresenceKey(userId) : visitorId ? guestKey(visitorId) : undefined;
      if (key) {
        await store.remove(key, tab);
        schedulePush();
      }
    },

    async countPlaying() {
      const counts = new Map<string, number>();
      for (const entry of await store.listActive(now())) {
        if (entry.game) {
          counts.set(entry.game, (counts.get(entry.game) ?? 0) + 1);
        }
      }
      return counts;
    },

    async getActiveUsers() {
      return toActiveUsersResponse(await store.listActive(now()));
    },

    flush() {
      const run = flushing.then(writeTime);
      flushing = run.catch(() => undefined);
      return run;
    },

    stats: () => ({
      ...counters,
      statements: counters.statements + analytics.stats().statements,
      pendingUsers: pendingMs.size,
    }),

    close() {
      isClosed = true;
      clearTimeout(pushTimer);
      clearTimeout(expiryTimer);
    },
  };
}
