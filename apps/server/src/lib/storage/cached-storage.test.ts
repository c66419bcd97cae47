import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { s3ServerKind } from '../../test/s3-server.js';
import { useTestBucket } from '../../test/test-bucket.js';
import { createCachedStorage } from './cached-storage.js';
import { DiskCache, VALIDATED_MS } from './disk-cache.js';
import { describeObjectStorageContract } from './object-storage.contract.js';
import type { ObjectStorage } from './object-storage.js';
import { createS3Client, createS3Storage } from './s3-storage.js';

const s3 = useTestBucket('storage-cache');
const hasServer = s3.available;

const root = mkdtempSync(path.join(tmpdir(), 'storage-cache-'));
let sharedCache: DiskCache;

beforeAll(async () => {
  sharedCache = await DiskCache.open({ dir: path.join(root, 'shared'), maxBytes: 1024 * 1024 });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const bucketScope = () =>
  createS3Storage(createS3Client(s3.settings()), s3.settings(), `${randomUUID()}/`);

describeObjectStorageContract(
  `S3 (${s3ServerKind ?? 'no server'}) read through a disk cache`,
  () => createCachedStorage(bucketScope(), sharedCache),
  { skip: !hasServer },
);

/** The bucket's reads, counted: `calls` says how often each reached it. */
function counted(storage: ObjectStorage, calls = { get: 0, head: 0 }) {
  const wrapped: ObjectStorage = {
    ...storage,
    head(key) {
      calls.head += 1;
      return storage.head(key);
    },
    get(key, range) {
      calls.get += 1;
      return storage.get(key, range);
    },
    scoped: (within) => counted(storage.scoped(within), calls).storage,
  };
  return { storage: wrapped, calls };
}

async function cacheOf(maxBytes: number) {
  let now = 1_000_000;
  const dir = path.join(root, randomUUID());
  const cache = await DiskCache.open({ dir, maxBytes, now: () => now });
  const bucket = counted(bucketScope());
  return {
    cache,
    dir,
    bucket: bucket.storage,
    calls: bucket.calls,
    cached: createCachedStorage(bucket.storage, cache),
    later: (ms: number) => (now += ms),
  };
}

const read = async (storage: ObjectStorage, key: string, range?: { start: number; end: number }) =>
  text((await storage.get(key, range))?.body ?? Readable.from(['(missing)']));

describe.skipIf(!hasServer)('the disk cache in front of a bucket', () => {
  it('reads an object from the bucket once: the second read and ranges come from the disk', async () => {
    const { cached, calls } = await cacheOf(1024 * 1024);
    await cached.put('g/1/game.wasm', Buffer.from('0123456789'));
    expect(await read(cached, 'g/1/game.wasm')).toBe('0123456789');
    expect(calls.get).toBe(1);
    expect(await read(cached, 'g/1/game.wasm')).toBe('0123456789');
    const range = await cached.get('g/1/game.wasm', { start: 3, end: 5 });
    expect(range?.size).toBe(10);
    expect(await text(range?.body ?? Readable.from([]))).toBe('345');
    expect(calls).toEqual({ get: 1, head: 0 });
  });

  it('asks the bucket for the ETag only after a while, and fetches nothing when it is the same', async () => {
    const { cached, calls, later } = await cacheOf(1024 * 1024);
    await cached.put('a.txt', Buffer.from('same'));
    await read(cached, 'a.txt');
    later(VALIDATED_MS + 1);
    expect(await read(cached, 'a.txt')).toBe('same');
    expect(calls).toEqual({ get: 1, head: 1 });
  });

  it('fetches the same cold object once for concurrent readers', async () => {
    const { cached, calls } = await cacheOf(1024 * 1024);
    await cached.put('big.bin', Buffer.alloc(256 * 1024, 1));
    const texts = await Promise.all(Array.from({ length: 8 }, () => read(cached, 'big.bin')));
    expect(texts.map((bytes) => bytes.length)).toEqual(Array(8).fill(256 * 1024));
    expect(calls.get).toBe(1);
  });

  it('never serves a replaced object stale: through this storage, or another process', async () => {
    const { cached, bucket, later } = await cacheOf(1024 * 1024);
    const thumbnail = cached.scoped('game/');
    await thumbnail.put('thumbnail.png', Buffer.from('first'));
    expect(await read(thumbnail, 'thumbnail.png')).toBe('first');
    await thumbnail.put('thumbnail.png', Buffer.from('second'));
    expect(await read(thumbnail, 'thumbnail.png')).toBe('second');
    // another replica writes to the bucket: its head, or the next check, sees the new ETag
    await bucket.put('game/thumbnail.png', Buffer.from('third'));
    expect((await thumbnail.head('thumbnail.png'))?.size).toBe(5);
    expect(await read(thumbnail, 'thumbnail.png')).toBe('third');
    await bucket.put('game/thumbnail.png', Buffer.from('fourth'));
    later(VALIDATED_MS + 1);
    expect(await read(thumbnail, 'thumbnail.png')).toBe('fourth');
    await cached.deletePrefix('game/');
    expect(await cached.get('game/thumbnail.png')).toBeUndefined();
  });

  it('evicts the least recently used objects down to its limit, and passes larger ones through', async () => {
    const { cache, cached, calls, dir } = await cacheOf(3000);
    for (const name of ['a', 'b', 'c']) {
      await cached.put(name, Buffer.alloc(1000, name));
      await read(cached, name);
    }
    await read(cached, 'a');
    await cached.put('d', Buffer.alloc(1000, 'd'));
    await read(cached, 'd');
    expect(cache.usage()).toEqual({ bytes: 3000, entries: 3 });
    // 'b' was the least recently used: it is read from the bucket again, the others are not
    calls.get = 0;
    for (const name of ['a', 'c', 'd']) {
      expect(await read(cached, name)).toBe(name.repeat(1000));
    }
    expect(calls.get).toBe(0);
    expect(await read(cached, 'b')).toBe('b'.repeat(1000));
    expect(calls.get).toBe(1);
    await cached.put('huge', Buffer.alloc(4000, 'h'));
    expect(await read(cached, 'huge', { start: 3998, end: 3999 })).toBe('hh');
    expect(cache.usage().bytes).toBeLessThanOrEqual(3000);
    // no temporary file is left behind, and the folder holds what the index counts
    expect(readdirSync(dir).filter((file) => file.startsWith('.tmp-'))).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(cache.usage().entries);
  });
});

it('removes only its own left-over files when it opens (a folder set to DATA_DIR keeps the rest)', async () => {
  const dir = path.join(root, 'reopened');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'a'.repeat(64)), 'a copy from the last run');
  writeFileSync(path.join(dir, '.tmp-0123456789abcdef'), 'half fetched');
  writeFileSync(path.join(dir, 'session-secret'), 'not the cache’s');
  await DiskCache.open({ dir, maxBytes: 1024 });
  expect(readdirSync(dir)).toEqual(['session-secret']);
});
