import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/*
 * One interface for everything the site keeps as files (game builds and their .br/.gz siblings,
 * thumbnails, achievement icons, uploaded media and its resized copies). Two drivers: a local
 * folder (local-storage.ts, the default) and an S3 bucket (s3-storage.ts). Keys are
 * '/'-separated relative paths ("<gameId>/<version>/index.html"); each area of the site has its
 * own storage (a folder, or a prefix in the bucket).
 */

/** What a stored object is known by without reading it. */
export interface ObjectInfo {
  key: string;
  size: number;
  /** A strong validator, quoted ("…"), that changes when the bytes do. */
  etag: string;
  lastModified: Date;
  /** The bytes' SHA-256 (hex) where the driver keeps one (S3: put with `sha256`), else unset. */
  sha256?: string | undefined;
}

/** A byte range, both ends included (as HTTP writes them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** An object being read: its facts and its bytes (the range asked for, else all). */
export interface ObjectRead extends ObjectInfo {
  body: Readable;
}

export interface PutOptions {
  /** Stored with the object where the driver keeps it (S3); serving decides types by name. */
  contentType?: string;
  /**
   * The bytes' SHA-256 (hex), kept with the object where the driver keeps metadata (S3:
   * x-amz-meta-sha256) and answered by head and get; the caller vouches for it.
   */
  sha256?: string;
}

export interface ObjectStorage {
  /** Where the objects live, for logs and messages ("folder /srv/media", "s3://bucket/media/"). */
  readonly description: string;
  /** Whether a put's `sha256` is kept and answered by head and get (S3: yes; a folder: no). */
  readonly keepsChecksums?: boolean;
  /**
   * Whether writers should stream objects in one by one rather than stage a folder for
   * importFolder (S3: yes, a folder costs a full local copy; a local folder: no, it moves in with
   * one rename). The game host publishes a zip's entries straight from the zip when it is set.
   */
  readonly prefersStreams?: boolean;
  /** An object's facts, or undefined when there is none under `key`. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** An object's bytes (a range of them), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<ObjectRead | undefined>;
  /** Writes an object whole (replacing one of the same key); readers never see it half written. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<void>;
  /**
   * Writes every regular file under the local folder `dir` as `prefix` + its relative path
   * (replacing objects of the same keys) and consumes the folder (moved in, or left to the
   * caller to remove). Where it fails part-way, the objects written stay: the caller deletes the
   * prefix. A folder on the storage's own file system moves in with one rename.
   */
  importFolder(dir: string, prefix: string): Promise<void>;
  /** Removes an object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Objects whose keys start with `prefix`, sorted by key (at most `limit`). */
  list(prefix: string, limit?: number): Promise<ObjectInfo[]>;
  /** Removes every object whose key starts with `prefix`; answers how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /** Throws a clear error when the storage cannot be used (folder not writable, no bucket). */
  check(): Promise<void>;
  /**
   * The same storage seen from `prefix` (a key ending with '/'): its keys are relative to it.
   * On a folder, links that resolve outside the scope's folder are missing objects, so a link
   * planted in one version of a build cannot reach another or /etc.
   */
  scoped(prefix: string): ObjectStorage;
}

/** The storage cannot be used (a missing bucket, refused credentials, a folder not writable). */
export class StorageUnavailableError extends Error {}

/** A key that is not a relative '/'-separated path of plain names. */
export class InvalidKeyError extends Error {}

const BAD_SEGMENT = /^\.{1,2}$|[\\\0]/;

/** Throws unless `key` is a relative path of plain names (no '..', no empty part, no backslash). */
export function assertKey(key: string): void {
  const segments = key.split('/');
  if (key === '' || segments.some((segment) => segment === '' || BAD_SEGMENT.test(segment))) {
    throw new InvalidKeyError(`Not a storage key: ${JSON.stringify(key)}`);
  }
}

/** Throws unless `prefix` is '' or a key, maybe ending with '/'. */
export function assertPrefix(prefix: string): void {
  if (prefix === '') {
    return;
  }
  assertKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** The regular files under a local folder, as '/'-separated relative paths (links skipped). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

/** Whether `key` names a folder of objects (a key with objects under `key/`). */
export async function isFolder(storage: ObjectStorage, key: string): Promise<boolean> {
  return (await storage.list(key.endsWith('/') ? key : `${key}/`, 1)).length > 0;
}
