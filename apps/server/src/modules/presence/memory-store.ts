import { ACTIVE_WINDOW_MS, type PresenceEntry, type PresenceStore } from './presence-store.js';

/** Presence for a single process: a Map keyed by visitor key. */
export function createMemoryPresenceStore(options: { windowMs?: number } = {}): PresenceStore {
  const windowMs = options.windowMs ?? ACTIVE_WINDOW_MS;
  const entries = new Map<string, PresenceEntry>();
  const isActive = (entry: PresenceEntry, now: number) => entry.lastSeen > now - windowMs;

  function prune(now: number) {
    for (const [key, entry] of entries) {
      if (!isActive(entry, now)) {
        entries.delete(key);
      }
    }
  }

  return {
    touch(entry) {
      const previous = entries.get(entry.key);
      entries.set(entry.key, { ...entry });
      return Promise.resolve(
        previous && isActive(previous, entry.lastSeen) ? previous.lastSeen : null,
      );
    },
    listActive(now) {
      prune(now);
      return Promise.resolve([...entries.values()].map((entry) => ({ ...entry })));
    },
    countActive(now) {
      prune(now);
      return Promise.resolve(entries.size);
    },
    remove(key, tab) {
      const entry = entries.get(key);
      if (tab === undefined || entry?.tab === undefined || entry.tab === tab) {
        entries.delete(key);
      }
      return Promise.resolve();
    },
  };
}
