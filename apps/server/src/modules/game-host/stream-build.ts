import { type Readable, Transform } from 'node:stream';

import { forEachBounded } from '../../lib/storage/for-each-bounded.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { compressorOf, downloadBytes, planSiblings, type SiblingPlan } from './compress.js';
import { type HeadReader, READ_LIMIT } from './detect.js';
import { type CheckedZip, openCheckedEntry, type PlannedFile } from './zip.js';

/*
 * Publishing a checked zip straight into a storage that prefers streams (S3), with no unpacked
 * copy on disk: each kept entry is read from the zip (CRC-checked) into `put`, and each of its
 * .br/.gz siblings (the same choice as compressBuild: planSiblings) is compressed from another
 * read of the entry on its way in, then deleted again when it is not smaller than the file.
 * At most STREAM_CONCURRENCY objects are written at once; siblings two at a time (brotli keeps
 * a core busy). A failure stops new writes and waits for those under way, so the caller's prefix
 * delete removes everything written.
 */

const STREAM_CONCURRENCY = 4;
const COMPRESS_CONCURRENCY = 2;

/** Reads the heads detection needs from the zip's entries (never past READ_LIMIT). */
export function headsInZip(zip: CheckedZip): HeadReader {
  const byPath = new Map(zip.files.map((file) => [file.path, file]));
  return async (relative) => {
    const file = byPath.get(relative);
    if (!file) {
      throw new Error(`no entry ${relative} in the zip`);
    }
    const stream = await openCheckedEntry(zip, file);
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of stream) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
        chunks.push(buffer);
        length += buffer.length;
        if (length >= READ_LIMIT) {
          break;
        }
      }
    } finally {
      stream.destroy();
    }
    return Buffer.concat(chunks).subarray(0, READ_LIMIT).toString('utf8');
  };
}

/** Counts the bytes passing through. */
function counter(): Transform & { bytes: number } {
  const counting = Object.assign(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        counting.bytes += chunk.length;
        callback(null, chunk);
      },
    }),
    { bytes: 0 },
  );
  return counting;
}

/**
 * Puts `body` under `key`; when the entry's read failed (a damaged zip), that refusal is the
 * error rather than whatever the storage made of the broken body.
 */
async function putEntry(
  storage: ObjectStorage,
  key: string,
  entry: Readable,
  body: Readable,
): Promise<void> {
  let readFailure: unknown;
  entry.once('error', (error: unknown) => {
    readFailure = error;
    body.destroy(error instanceof Error ? error : undefined);
  });
  try {
    await storage.put(key, body);
  } catch (error) {
    entry.destroy();
    throw readFailure ?? error;
  }
}

async function writeSibling(
  storage: ObjectStorage,
  zip: CheckedZip,
  file: PlannedFile,
  plan: SiblingPlan,
  key: string,
): Promise<number | undefined> {
  const entry = await openCheckedEntry(zip, file);
  const size = counter();
  await putEntry(storage, key, entry, entry.pipe(compressorOf(plan)).pipe(size));
  if (size.bytes >= plan.size) {
    await storage.delete(key);
    return undefined;
  }
  return size.bytes;
}

/**
 * Writes the kept `files` of `zip` and their siblings under `prefix`; answers what browsers
 * download in all (compressedBytes, as compressBuild counts it).
 */
export async function writeZipBuild(
  storage: ObjectStorage,
  zip: CheckedZip,
  files: readonly PlannedFile[],
  prefix: string,
): Promise<number> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const sized = files.map((file) => ({ path: file.path, size: file.entry.uncompressedSize }));
  const brotliSizes = new Map<string, number>();
  // a failure in one pool stops the other from starting writes too
  let isStopped = false;
  const stopping = (error: unknown) => {
    isStopped = true;
    throw error;
  };
  const writeFiles = forEachBounded(files, STREAM_CONCURRENCY - COMPRESS_CONCURRENCY, (file) =>
    isStopped
      ? Promise.resolve()
      : openCheckedEntry(zip, file)
          .then((entry) => putEntry(storage, prefix + file.path, entry, entry))
          .catch(stopping),
  );
  const writeSiblings = forEachBounded(planSiblings(sized), COMPRESS_CONCURRENCY, async (plan) => {
    const file = isStopped ? undefined : byPath.get(plan.path);
    const key = `${prefix}${plan.path}.${plan.kind}`;
    const kept = file
      ? await writeSibling(storage, zip, file, plan, key).catch(stopping)
      : undefined;
    if (kept !== undefined && plan.kind === 'br') {
      brotliSizes.set(plan.path, kept);
    }
  });
  // both settle before a failure is answered: no write is left in flight
  const [filesDone, siblingsDone] = await Promise.allSettled([writeFiles, writeSiblings]);
  for (const done of [filesDone, siblingsDone]) {
    if (done.status === 'rejected') {
      throw done.reason;
    }
  }
  return downloadBytes(sized, brotliSizes);
}
