import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { ByteRange, ObjectRead } from './object-storage.js';

/*
 * A bounded folder of whole objects copied from a bucket, for serving (cached-storage.ts uses
 * it). One file per key and ETag, so bytes that changed under a key are never read for it;
 * written to a temporary name and renamed, so a half-fetched object is never read; evicted by
 * last use down to the limit. The index lives in memory: the cache's files are removed when it
 * opens, so each process needs a folder of its own.
 */

/** How long an ETag seen at the bucket is trusted without asking again (send-object's too). */
export const VALIDATED_MS = 5000;

export interface CacheEntry {
  file: string;
  etag: string;
  size: number;
  lastModified: Date;
  /** When the bucket last said this ETag is the key's (ms). */
  validatedAt: number;
}

/** What filling a key gave: the entry, no object, or one too large to keep. */
export type FillResult = CacheEntry | 'missing' | 'too-large' | 'superseded';

type Store = (read: ObjectRead) => Promise<FillResult>;

/** The names the cache writes: <sha-256 of key and ETag>, and .tmp-<random> while fetching. */
const CACHE_FILE = /^(?:[0-9a-f]{64}|\.tmp-[0-9a-f]{16})$/;

const fileNameOf = (id: string, etag: string) =>
  createHash('sha256').update(`${id}\0${etag}`).digest('hex');

export class DiskCache {
  // Map order is the LRU order: oldest use first
  private readonly entries = new Map<string, CacheEntry>();
  private readonly flights = new Map<string, { token: object; promise: Promise<FillResult> }>();
  private bytes = 0;

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
    private readonly now: () => number,
  ) {}

  /** Opens (and empties) the cache folder `dir` holding at most `maxBytes`. */
  static async open(options: {
    dir: string;
    maxBytes: number;
    now?: () => number;
  }): Promise<DiskCache> {
    await mkdir(options.dir, { recursive: true });
    // only the cache's own files go: a folder set by mistake to DATA_DIR keeps everything else
    const leftOver = (await readdir(options.dir)).filter((name) => CACHE_FILE.test(name));
    await Promise.all(leftOver.map((name) => rm(path.join(options.dir, name), { force: true })));
    return new DiskCache(options.dir, options.maxBytes, options.now ?? Date.now);
  }

  /** The entry of `id`, marked as just used; undefined when none is kept. */
  lookup(id: string): CacheEntry | undefined {
    const entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    return entry;
  }

  /** Whether the entry's ETag was confirmed at the bucket within VALIDATED_MS. */
  isFresh(entry: CacheEntry): boolean {
    return this.now() - entry.validatedAt < VALIDATED_MS;
  }

  /** What the bucket says `id` is now: keeps the entry if the ETag is the same, else drops it. */
  observe(id: string, etag: string | undefined): CacheEntry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.etag === etag) {
      entry.validatedAt = this.now();
      return entry;
    }
    this.drop(id);
    return undefined;
  }

  /** Runs `load` once for concurrent callers of the same id; `store` keeps what it read. */
  once(id: string, load: (store: Store) => Promise<FillResult>): Promise<FillResult> {
    const flying = this.flights.get(id);
    if (flying) {
      return flying.promise;
    }
    const token = {};
    const promise = load((read) => this.store(id, token, read)).finally(() => {
      if (this.flights.get(id)?.token === token) {
        this.flights.delete(id);
      }
    });
    this.flights.set(id, { token, promise });
    return promise;
  }

  /** The entry's bytes (a range of them), or undefined when its file is gone (evicted). */
  async open(entry: CacheEntry, key: string, range?: ByteRange): Promise<ObjectRead | undefined> {
    const handle = await open(entry.file, 'r').catch(() => undefined);
    if (!handle) {
      return undefined;
    }
    const body = createReadStream('', {
      fd: handle,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
    return { key, size: entry.size, etag: entry.etag, lastModified: entry.lastModified, body };
  }

  /** Drops `id` (changed or deleted): a fetch of it under way is not kept either. */
  forget(id: string): void {
    this.flights.delete(id);
    this.drop(id);
  }

  forgetPrefix(prefix: string): void {
    for (const id of [...this.flights.keys()].filter((id) => id.startsWith(prefix))) {
      this.flights.delete(id);
    }
    for (const id of [...this.entries.keys()].filter((id) => id.startsWith(prefix))) {
      this.drop(id);
    }
  }

  /** Bytes and entries kept. */
  usage(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size };
  }

  /** Forgets `id`'s entry and removes its file (unless it is `keptFile`, just renamed in). */
  private drop(id: string, keptFile?: string): void {
    const entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
      this.bytes -= entry.size;
      if (entry.file !== keptFile) {
        // a reader that opened it keeps its bytes (an unlinked file stays readable)
        void unlink(entry.file).catch(() => undefined);
      }
    }
  }

  private evict(): void {
    for (const id of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) {
        return;
      }
      this.drop(id);
    }
  }

  private async store(id: string, token: object, read: ObjectRead): Promise<FillResult> {
    if (read.size > this.maxBytes) {
      read.body.destroy();
      return 'too-large';
    }
    const file = path.join(this.dir, fileNameOf(id, read.etag));
    const temporary = path.join(this.dir, `.tmp-${randomBytes(8).toString('hex')}`);
    try {
      await pipeline(read.body, createWriteStream(temporary));
      // changed or deleted while it was fetched: this copy is not the key's any more
      if (this.flights.get(id)?.token !== token) {
        await unlink(temporary);
        return 'superseded';
      }
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    this.drop(id, file);
    const entry = { file, etag: read.etag, size: read.size, lastModified: read.lastModified };
    this.entries.set(id, { ...entry, validatedAt: this.now() });
    this.bytes += read.size;
    this.evict();
    return this.entries.get(id) ?? 'superseded';
  }
}
