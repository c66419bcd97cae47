import { createHmac } from 'node:crypto';

import type { ActiveUsersResponse, CurrentUser } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import type { DomainEventBus } from '../../lib/events.js';
import { memoizeBounded } from '../../lib/memoize.js';
import type { AdminNotifier } from '../../lib/admin-notifier.js';
import type { AnalyticsService } from '../analytics/index.js';
import {
  MAX_HEARTBEAT_GAP_MS,
  type PresenceEntry,
  type PresenceStore,
  userPresenceKey,
} from './presence-store.js';
import { moduleLogger } from '../../lib/logger.js';
import { toActiveUsersResponse } from './active-users.js';
import { createAdminPush } from './admin-push.js';
import { createPendingTime } from './pending-time.js';

export { toActiveUsersResponse } from './active-users.js';
export { PRESENCE_PUSH_INTERVAL_MS } from './admin-push.js';

const log = moduleLogger('presence');

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

/** Adds a replaced guest key, forgetting the oldest past 100,000. */
function markReplaced(replacedGuests: Set<string>, key: string) {
  if (replacedGuests.size >= 100_000) {
    const oldest = replacedGuests.values().next();
    if (!oldest.done) {
      replacedGuests.delete(oldest.value);
    }
  }
  replacedGuests.add(key);
}

/** A signed-in user's presence entry (fields set only when present: no spread per heartbeat). */
function userEntry(user: CurrentUser, input: Heartbeat, at: number): PresenceEntry {
  const entry: PresenceEntry = {
    key: userPresenceKey(user.id),
    kind: 'user',
    userId: user.id,
    username: user.username,
    role: user.role,
    currentPage: input.currentPage,
    lastSeen: at,
  };
  if (input.game) {
    entry.game = input.game;
  }
  if (input.tab) {
    entry.tab = input.tab;
  }
  return entry;
}

/**
 * Guest keys: HMACs, so raw ids and addresses are never stored. Guests send the same visitor id
 * (at most 64 characters) every 30 s: its whole key is remembered, no string built per heartbeat.
 */
function createGuestKeys(secret: string) {
  const keyedHash = (value: string) =>
    createHmac('sha256', secret).update(value).digest('base64url').slice(0, 32);
  const guestKey = memoizeBounded(
    (visitorId: string) => `anon:${keyedHash(`visitor:${visitorId}`)}`,
    100_000,
  );
  return { keyedHash, guestKey };
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
  const counters = { heartbeats: 0, statements: 0 };
  const pending = createPendingTime(db, counters);
  const pusher = createAdminPush({ store, analytics, notifier, now });
  const schedulePush = pusher.schedule;
  let flushing: Promise<void> = Promise.resolve();

  const { keyedHash, guestKey } = createGuestKeys(deps.secret);

  notifier.onAdminJoined(() => schedulePush());

  function removeEntry(key: string) {
    store
      .remove(key)
      .then(schedulePush, (error: unknown) => log.error({ err: error }, 'remove failed'));
  }

  deps.events.on('user:deleted', ({ userId }) => {
    pending.forget(userId);
    removeEntry(userPresenceKey(userId));
  });
  // a signed-out user leaves the live list now, not 75 s later (their time so far is kept)
  deps.events.on('user:logged-out', ({ userId }) => removeEntry(userPresenceKey(userId)));

  /**
   * Guest keys already replaced by a signed-in user, so the removal costs one store call per
   * sign-in, not one per heartbeat. A guest heartbeat from that browser (after sign-out) clears it.
   */
  const replacedGuests = new Set<string>();

  /** After a user's entry was written: time on site since the previous beat, the visitor, the push. */
  function afterUserTouch(entry: PresenceEntry, previous: number | null) {
    const { userId, lastSeen } = entry;
    // the entry is per user, so several tabs share one clock: their heartbeats never double-count
    if (previous !== null && userId !== undefined) {
      pending.add(userId, Math.min(Math.max(0, lastSeen - previous), MAX_HEARTBEAT_GAP_MS));
    }
    analytics.noteVisitor(entry.key, true, lastSeen);
    schedulePush();
  }

  // ---- heartbeats --------------------------------------------------------------------------
  return {
    // no async functions: a heartbeat is one promise (the store's) and one step after it
    heartbeatUser(user, input) {
      counters.heartbeats++;
      const entry = userEntry(user, input, now());
      const { visitorId } = input;
      if (visitorId) {
        const guest = guestKey(visitorId);
        if (!replacedGuests.has(guest)) {
          markReplaced(replacedGuests, guest);
          // the same browser as a guest a moment ago: one person, not two
          return store
            .remove(guest)
            .then(() => store.touch(entry))
            .then((previous) => afterUserTouch(entry, previous));
        }
      }
      return store.touch(entry).then((previous) => afterUserTouch(entry, previous));
    },

    heartbeatGuest(input) {
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
      return store.touch(entry).then(() => {
        analytics.noteVisitor(key, false, at);
        schedulePush();
      });
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
      const run = flushing.then(pending.write);
      flushing = run.catch(() => undefined);
      return run;
    },

    stats: () => ({
      ...counters,
      statements: counters.statements + analytics.stats().statements,
      pendingUsers: pending.users,
    }),

    close: () => pusher.close(),
  };
}
