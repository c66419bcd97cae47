import { describe, expect, it } from 'vitest';

import { ACTIVE_WINDOW_MS, type PresenceEntry, type PresenceStore } from './presence-store.js';

/** A fixed clock far from "now", so nothing depends on when the suite runs. */
const T0 = 1_700_000_000_000;

const guest = (id: string, lastSeen: number, currentPage = '/'): PresenceEntry => ({
  key: `anon:${id}`,
  kind: 'anonymous',
  currentPage,
  lastSeen,
});

const member = (id: string, lastSeen: number, currentPage = '/games'): PresenceEntry => ({
  key: `user:${id}`,
  kind: 'user',
  userId: id,
  username: `name-${id}`,
  role: 'subscriber',
  currentPage,
  lastSeen,
});

/**
 * The behaviour every PresenceStore must have. `makeStore` returns a fresh, empty store
 * (for Redis: a unique key prefix).
 */
export function describePresenceStoreContract(
  name: string,
  makeStore: () => PresenceStore,
  options: { skip?: boolean } = {},
) {
  describe.skipIf(options.skip ?? false)(`PresenceStore contract: ${name}`, () => {
    it('returns null for a first heartbeat and lists the entry with every field', async () => {
      const store = makeStore();
      expect(await store.touch(member('u1', T0))).toBeNull();
      expect(await store.listActive(T0 + 1)).toEqual([member('u1', T0)]);
      expect(await store.countActive(T0 + 1)).toBe(1);
    });

    it('keeps one entry per key and returns the previous lastSeen while it was active', async () => {
      const store = makeStore();
      await store.touch(member('u1', T0, '/games'));
      expect(await store.touch(member('u1', T0 + 30_000, '/profile'))).toBe(T0);
      expect(await store.touch(member('u1', T0 + 45_000, '/admin'))).toBe(T0 + 30_000);
      const entries = await store.listActive(T0 + 45_000);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ currentPage: '/admin', lastSeen: T0 + 45_000 });
    });

    it('applies heartbeats sent at the same moment in order', async () => {
      const store = makeStore();
      const previous = await Promise.all([
        store.touch(member('u1', T0, '/a')),
        store.touch(guest('g1', T0)),
        store.touch(member('u1', T0 + 1000, '/b')),
        store.touch(member('u1', T0 + 2000, '/c')),
      ]);
      expect(previous).toEqual([null, null, T0, T0 + 1000]);
      const entries = await store.listActive(T0 + 2000);
      expect(entries.find((entry) => entry.key === 'user:u1')).toMatchObject({
        currentPage: '/c',
        lastSeen: T0 + 2000,
      });
    });

    it('does not bring back an entry removed right after a heartbeat', async () => {
      const store = makeStore();
      const touched = store.touch(member('u1', T0));
      await store.remove('user:u1');
      await touched;
      expect(await store.countActive(T0)).toBe(0);
    });

    it('treats an entry as gone once its last heartbeat is a whole window old', async () => {
      const store = makeStore();
      await store.touch(guest('a', T0));
      await store.touch(guest('b', T0 + 10_000));
      expect(await store.countActive(T0 + ACTIVE_WINDOW_MS - 1)).toBe(2);
      expect(await store.countActive(T0 + ACTIVE_WINDOW_MS)).toBe(1);
      expect((await store.listActive(T0 + ACTIVE_WINDOW_MS)).map((entry) => entry.key)).toEqual([
        'anon:b',
      ]);
      // a heartbeat after the window starts a new visit: no previous time to add
      expect(await store.touch(guest('b', T0 + 10_000 + ACTIVE_WINDOW_MS))).toBeNull();
    });

    it('forgets expired entries, even if they are never listed', async () => {
      const store = makeStore();
      await store.touch(guest('a', T0));
      expect(await store.touch(guest('a', T0 + ACTIVE_WINDOW_MS + 5))).toBeNull();
      expect(await store.listActive(T0 + ACTIVE_WINDOW_MS + 5)).toHaveLength(1);
    });

    it('removes an entry', async () => {
      const store = makeStore();
      await store.touch(member('u1', T0));
      await store.touch(guest('g1', T0));
      await store.remove('user:u1');
      expect((await store.listActive(T0)).map((entry) => entry.key)).toEqual(['anon:g1']);
      expect(await store.touch(member('u1', T0 + 1000))).toBeNull();
    });

    it('keeps an entry whose latest heartbeat came from another page load than the one leaving', async () => {
      const store = makeStore();
      // a full navigation: the new page beats before the old page's leave arrives
      await store.touch({ ...member('u1', T0), tab: 'old' });
      await store.touch({ ...member('u1', T0 + 100), tab: 'new' });
      await store.remove('user:u1', 'old');
      expect((await store.listActive(T0 + 200)).map((entry) => entry.key)).toEqual(['user:u1']);
      // the page that beat last goes away: gone
      await store.remove('user:u1', 'new');
      expect(await store.countActive(T0 + 200)).toBe(0);
      // an entry that names no page load (an older client) goes whatever the leave names
      await store.touch(guest('g1', T0));
      await store.remove('anon:g1', 'any');
      expect(await store.countActive(T0)).toBe(0);
    });

    it('lists and counts large populations', async () => {
      const store = makeStore();
      await Promise.all(
        Array.from({ length: 1200 }, (_, index) =>
          store.touch(guest(`g${index}`, T0 + index, `/p${index % 3}`)),
        ),
      );
      const now = T0 + ACTIVE_WINDOW_MS + 200;
      // the first 201 entries (lastSeen ≤ T0 + 200) have expired
      expect(await store.countActive(now)).toBe(999);
      const entries = await store.listActive(now);
      expect(entries).toHaveLength(999);
      expect(new Set(entries.map((entry) => entry.key)).size).toBe(999);
    });
  });
}
