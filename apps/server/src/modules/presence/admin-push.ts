import { moduleLogger } from '../../lib/logger.js';
import type { AdminNotifier } from '../../lib/admin-notifier.js';
import type { AnalyticsService } from '../analytics/index.js';
import { ACTIVE_WINDOW_MS, type PresenceEntry, type PresenceStore } from './presence-store.js';
import { toActiveUsersResponse } from './active-users.js';

const log = moduleLogger('presence');

/** Admins get at most one presence push per this interval, however many heartbeats arrive. */
export const PRESENCE_PUSH_INTERVAL_MS = 1000;

/**
 * Coalesced presence pushes to admins. `schedule` is called on every heartbeat, so it is one
 * check and, at most once a second, one timer.
 */
export function createAdminPush(deps: {
  store: PresenceStore;
  analytics: AnalyticsService;
  notifier: AdminNotifier;
  now: () => number;
}) {
  const { store, analytics, notifier, now } = deps;
  let pushTimer: NodeJS.Timeout | undefined;
  let expiryTimer: NodeJS.Timeout | undefined;
  let lastPushAt = Number.NEGATIVE_INFINITY;
  let isClosed = false;

  /** Leading-edge throttle: an isolated change goes out at once, a stream at most once a second. */
  function schedule() {
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
    expiryTimer = setTimeout(schedule, Math.max(0, oldest + ACTIVE_WINDOW_MS - at) + 50);
    expiryTimer.unref();
  }

  return {
    schedule,
    close() {
      isClosed = true;
      clearTimeout(pushTimer);
      clearTimeout(expiryTimer);
    },
  };
}
