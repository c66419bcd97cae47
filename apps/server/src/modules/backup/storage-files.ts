import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { forEachBounded } from '../../lib/storage/for-each-bounded.js';
import {
  assertKey,
  filesUnder,
  InvalidKeyError,
  type ObjectStorage,
} from '../../lib/storage/object-storage.js';
import { contentTypeOf } from '../../lib/storage/send-object.js';

/*
 * The archive's games/ and media/ when the site keeps its files in a bucket (STORAGE=s3): the
 * objects are read into the backup's staging folder under the same paths as the folder layout,
 * and a restore puts the files back as objects. Both stream, a few objects at a time.
 */

const CONCURRENCY = 4;

/** Thrown for an object the archive cannot hold; archive.ts turns it into a BackupError. */
export class StorageFilesError extends Error {}

/**
 * Writes each object of `storage` that `dir` does not hold yet to `dir/<key>` (dot-named top
 * entries are work areas and stay out, as on a folder). An object deleted meanwhile is left out.
 */
export async function stageObjects(storage: ObjectStorage, dir: string): Promise<void> {
  const objects = (await storage.list('')).filter((info) => !info.key.startsWith('.'));
  await forEachBounded(objects, CONCURRENCY, async ({ key }) => {
    try {
      assertKey(key);
    } catch (error) {
      if (error instanceof InvalidKeyError) {
        throw new StorageFilesError(
          `${storage.description} holds an object whose key is not a plain path (${JSON.stringify(key)}): move it out of the bucket's prefix and retry`,
        );
      }
      throw error;
    }
    const target = path.join(dir, ...key.split('/'));
    if (existsSync(target)) {
      return;
    }
    const read = await storage.get(key);
    if (!read) {
      return;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await pipeline(read.body, createWriteStream(target));
  });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/**
 * Puts every file under `dir` into `storage` under its relative path, with its SHA-256 where the
 * storage keeps one (so a later storage:migrate compares without downloading); answers how many.
 */
export async function putFiles(dir: string, storage: ObjectStorage): Promise<number> {
  if (!existsSync(dir)) {
    return 0;
  }
  const files = await filesUnder(dir);
  await forEachBounded(files, CONCURRENCY, async (file) => {
    const source = path.join(dir, ...file.split('/'));
    const sha256 = storage.keepsChecksums ? await sha256Of(source) : undefined;
    await storage.put(file, createReadStream(source), {
      contentType: contentTypeOf(file),
      ...(sha256 ? { sha256 } : {}),
    });
  });
  return files.length;
}

/** Whether `storage` holds no object. */
export async function isStorageEmpty(storage: ObjectStorage): Promise<boolean> {
  return (await storage.list('', 1)).length === 0;
}
