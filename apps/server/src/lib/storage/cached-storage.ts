import {
  assertKey,
  assertPrefix,
  type ObjectInfo,
  type ObjectRead,
  type ObjectStorage,
  StorageUnavailableError,
} from './object-storage.js';
import type { DiskCache, FillResult } from './disk-cache.js';

/*
 * A storage that reads through a local disk cache (disk-cache.ts) in front of another (the S3
 * driver): a read serves the cached copy while the bucket's ETag for the key is the one it was
 * fetched with (asked again at most every VALIDATED_MS, and at every head), else fetches the
 * object whole, once for concurrent readers, and keeps it. Writes, lists and deletes go to the
 * inner storage; a put, delete or prefix delete through any scope drops the cached copies.
 * While the bucket cannot be reached (StorageUnavailableError), a copy already here is served as
 * it was last known (stale if unavailable): builds are immutable and media named by their bytes,
 * so a visitor playing a cached game does not notice the outage; anything else answers 503.
 */

/** `inner` read through `cache`; `prefix` is where `inner` sits in the cache's key space. */
export function createCachedStorage(
  inner: ObjectStorage,
  cache: DiskCache,
  prefix = '',
): ObjectStorage {
  const idOf = (key: string) => {
    assertKey(key);
    return prefix + key;
  };

  const load = (key: string) => (store: (read: ObjectRead) => Promise<FillResult>) =>
    inner
      .get(key)
      .then((read): Promise<FillResult> | FillResult => (read ? store(read) : 'missing'));

  /** The bucket's facts of `key`, or the cached copy's while the bucket cannot be reached. */
  async function headOrCached(key: string): Promise<ObjectInfo | undefined> {
    const id = idOf(key);
    try {
      const info = await inner.head(key);
      cache.observe(id, info?.etag);
      return info;
    } catch (error) {
      const kept = error instanceof StorageUnavailableError ? cache.lookup(id) : undefined;
      if (!kept) {
        throw error;
      }
      return { key, size: kept.size, etag: kept.etag, lastModified: kept.lastModified };
    }
  }

  async function get(key: string, range?: Parameters<ObjectStorage['get']>[1]) {
    const id = idOf(key);
    let entry = cache.lookup(id);
    if (entry && !cache.isFresh(entry)) {
      await headOrCached(key);
      entry = cache.lookup(id);
    }
    if (!entry) {
      const filled = await cache.once(id, load(key));
      if (filled === 'missing') {
        return undefined;
      }
      if (typeof filled === 'string') {
        // too large to keep, or replaced while it was fetched: read the bucket itself
        return inner.get(key, range);
      }
      entry = filled;
    }
    // evicted between the look-up and the open: the bucket still has it
    return (await cache.open(entry, key, range)) ?? inner.get(key, range);
  }

  return {
    description: inner.description,
    prefersStreams: inner.prefersStreams === true,
    head: headOrCached,
    get,
    async put(key, body, options) {
      const id = idOf(key);
      try {
        await inner.put(key, body, options);
      } finally {
        cache.forget(id);
      }
    },
    async importFolder(dir, within) {
      assertPrefix(within);
      try {
        await inner.importFolder(dir, within);
      } finally {
        cache.forgetPrefix(prefix + within);
      }
    },
    async delete(key) {
      const id = idOf(key);
      try {
        await inner.delete(key);
      } finally {
        cache.forget(id);
      }
    },
    list: (within, limit) => inner.list(within, limit),
    async deletePrefix(within) {
      assertPrefix(within);
      try {
        return await inner.deletePrefix(within);
      } finally {
        cache.forgetPrefix(prefix + within);
      }
    },
    check: () => inner.check(),
    scoped(within) {
      assertPrefix(within);
      return createCachedStorage(inner.scoped(within), cache, prefix + within);
    },
  };
}
