import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

import { forEachBounded } from './for-each-bounded.js';
import type { ObjectInfo, ObjectStorage, PutOptions } from './object-storage.js';
import { contentTypeOf } from './send-object.js';

/*
 * Copies every object of one storage into another (a folder into the bucket, or back), so an
 * owner can switch STORAGE without losing a file. Resumable: an object already at the
 * destination with the same size and SHA-256 is skipped. The source's SHA-256 is computed by
 * reading it (a folder) or taken from the object's metadata (a bucket object this copy wrote);
 * the destination's is its metadata where the driver keeps one (the bucket: written with the
 * object, so comparing costs a HEAD, not a download) or computed by reading it (a folder, on the
 * same disk). Each copy is hashed as it streams and checked afterwards: the bytes sent must be
 * the source's, the destination must have their size and SHA-256. Objects stream through; a
 * bounded number are copied at once.
 */

export interface MigrationArea {
  /** Named in messages and events ("games", "media"). */
  name: string;
  from: ObjectStorage;
  to: ObjectStorage;
}

export type MigrationOutcome = 'copied' | 'skipped' | 'failed';

/** One object done: copied, skipped as already there, or failed (`error` says why). */
export interface MigrationEvent {
  /** `<area>/<key>`. */
  name: string;
  size: number;
  outcome: MigrationOutcome;
  error?: string;
}

export interface MigrationSummary {
  files: number;
  bytes: number;
  copied: number;
  copiedBytes: number;
  skipped: number;
  failed: { name: string; error: string }[];
}

export interface MigrationOptions {
  /** Objects copied at once (default 4). */
  concurrency?: number;
  /** Called once every source is listed, before the first copy. */
  onPlan?: (plan: { files: number; bytes: number }) => void;
  onObject?: (event: MigrationEvent) => void;
}

/** A copy that did not arrive whole; the message names the object. */
export class MigrationError extends Error {}

/** An object's SHA-256 (hex), read as a stream. */
export async function digestOf(storage: ObjectStorage, key: string): Promise<string> {
  const read = await storage.get(key);
  if (!read) {
    throw new MigrationError(`${key}: missing from ${storage.description}`);
  }
  const hash = createHash('sha256');
  for await (const chunk of read.body) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

const storedDigest = async (storage: ObjectStorage, key: string) =>
  storage.keepsChecksums ? (await storage.head(key))?.sha256 : undefined;

/**
 * Copies one object, hashing it on its way; throws MigrationError when what was sent is not the
 * source's bytes or what arrived is not what was sent (the bad copy is removed).
 */
async function copyVerified(area: MigrationArea, info: ObjectInfo, expected?: string) {
  const { from, to, name } = area;
  const read = await from.get(info.key);
  if (!read) {
    throw new MigrationError(`${name}/${info.key}: gone from ${from.description} before its copy`);
  }
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  read.body.once('error', (error) => tap.destroy(error));
  const options: PutOptions = { contentType: contentTypeOf(info.key) };
  if (expected) {
    options.sha256 = expected;
  }
  try {
    await to.put(info.key, read.body.pipe(tap), options);
  } finally {
    read.body.destroy();
  }
  const sent = hash.digest('hex');
  const problem = await checkCopy(to, info.key, read.size, sent, expected);
  if (problem) {
    await to.delete(info.key).catch(() => undefined);
    throw new MigrationError(`${name}/${info.key}: ${problem}; the copy was removed`);
  }
}

/** Why the copy at `key` is not the source's bytes, or undefined when it is. */
async function checkCopy(
  to: ObjectStorage,
  key: string,
  size: number,
  sent: string,
  expected: string | undefined,
): Promise<string | undefined> {
  if (expected && sent !== expected) {
    return `the source changed while it was copied (SHA-256 ${expected} before, ${sent} sent)`;
  }
  const written = await to.head(key);
  if (written?.size !== size) {
    return `checksum mismatch: ${size} bytes sent, ${written?.size ?? 'none'} arrived`;
  }
  const arrived = written.sha256 ?? (await digestOf(to, key));
  if (arrived !== sent) {
    return `checksum mismatch: SHA-256 ${sent} sent, ${arrived} arrived`;
  }
  return undefined;
}

/** Copies one object unless the destination holds the same bytes; answers which it did. */
async function migrateObject(area: MigrationArea, info: ObjectInfo): Promise<'copied' | 'skipped'> {
  const { from, to } = area;
  const existing = await to.head(info.key);
  let source = await storedDigest(from, info.key);
  if (existing?.size === info.size) {
    source ??= await digestOf(from, info.key);
    if ((existing.sha256 ?? (await digestOf(to, info.key))) === source) {
      return 'skipped';
    }
  }
  // a destination that keeps checksums is given the source's with the object
  if (to.keepsChecksums) {
    source ??= await digestOf(from, info.key);
  }
  await copyVerified(area, info, source);
  return 'copied';
}

/**
 * Copies every object of each area's `from` into its `to` (nothing is deleted on either side);
 * a failed object is reported and counted, and the rest go on.
 */
export async function migrateStorage(
  areas: MigrationArea[],
  options: MigrationOptions = {},
): Promise<MigrationSummary> {
  const work: { area: MigrationArea; info: ObjectInfo }[] = [];
  for (const area of areas) {
    for (const info of await area.from.list('')) {
      work.push({ area, info });
    }
  }
  const summary: MigrationSummary = {
    files: work.length,
    bytes: work.reduce((sum, item) => sum + item.info.size, 0),
    copied: 0,
    copiedBytes: 0,
    skipped: 0,
    failed: [],
  };
  options.onPlan?.({ files: summary.files, bytes: summary.bytes });
  await forEachBounded(work, options.concurrency ?? 4, async ({ area, info }) => {
    const name = `${area.name}/${info.key}`;
    try {
      const outcome = await migrateObject(area, info);
      if (outcome === 'copied') {
        summary.copied += 1;
        summary.copiedBytes += info.size;
      } else {
        summary.skipped += 1;
      }
      options.onObject?.({ name, size: info.size, outcome });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const text = message.startsWith(name) ? message : `${name}: ${message}`;
      summary.failed.push({ name, error: text });
      options.onObject?.({ name, size: info.size, outcome: 'failed', error: text });
    }
  });
  return summary;
}
