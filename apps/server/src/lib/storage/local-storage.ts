import { randomUUID } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';

import {
  assertKey,
  assertPrefix,
  filesUnder,
  type ByteRange,
  type ObjectInfo,
  type ObjectStorage,
} from './object-storage.js';

/*
 * The local folder driver (the default): a key is a path under the folder. Objects are regular
 * files; a link is followed only while it stays inside the folder (else the object is missing).
 * A put writes a hidden sibling and renames it, so a reader sees the old file or the new one.
 * Names starting with '.' at the folder's top (.incoming: work in progress) and the hidden
 * partial files are not objects.
 */

const PARTIAL = /^\..*\.partial$/;

/** The ETag the games origin has always sent for a file: size and mtime in hex. */
function etagOf(stats: Stats): string {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

function infoOf(key: string, stats: Stats): ObjectInfo {
  return { key, size: stats.size, etag: etagOf(stats), lastModified: stats.mtime };
}

const isMissing = (error: unknown) =>
  error instanceof Error &&
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The file's stats when it is a regular file that resolves inside the folder. */
async function statInside(
  base: string,
  followLinks: boolean,
  file: string,
): Promise<Stats | undefined> {
  try {
    if (!followLinks && (await lstat(file)).isSymbolicLink()) {
      return undefined;
    }
    const [realRoot, real] = await Promise.all([realpath(base), realpath(file)]);
    if (!real.startsWith(realRoot + path.sep)) {
      return undefined;
    }
    const stats = await stat(real);
    return stats.isFile() ? stats : undefined;
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') {
      return undefined;
    }
    throw error;
  }
}

async function walk(dir: string, keyPrefix: string, out: ObjectInfo[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (isMissing(error)) {
      return [];
    }
    throw error;
  });
  for (const entry of entries) {
    if (PARTIAL.test(entry.name) || (keyPrefix === '' && entry.name.startsWith('.'))) {
      continue;
    }
    const key = keyPrefix + entry.name;
    if (entry.isDirectory()) {
      await walk(path.join(dir, entry.name), `${key}/`, out);
    } else if (entry.isFile()) {
      const stats = await stat(path.join(dir, entry.name)).catch(() => undefined);
      if (stats) {
        out.push(infoOf(key, stats));
      }
    }
  }
}

async function listUnder(base: string, prefix: string, limit = Infinity): Promise<ObjectInfo[]> {
  assertPrefix(prefix);
  // walk only the folder the prefix names (up to its last '/')
  const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  const out: ObjectInfo[] = [];
  await walk(path.join(base, ...folder.split('/').filter(Boolean)), folder, out);
  return out
    .filter((info) => info.key.startsWith(prefix))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, limit);
}

export interface LocalStorageOptions {
  /**
   * Follow links that stay inside the folder (true, the default: a build's own links), or treat
   * every link as a missing object (uploaded media is never a link).
   */
  followLinks?: boolean;
}

/** A storage over the folder `root` (made on the first put). */
export function createLocalStorage(root: string, options: LocalStorageOptions = {}): ObjectStorage {
  const followLinks = options.followLinks ?? true;
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(base, ...key.split('/'));
  };

  async function put(key: string, body: Readable | Buffer): Promise<void> {
    const file = fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const partial = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${randomUUID()}.partial`,
    );
    try {
      if (Buffer.isBuffer(body)) {
        await writeFile(partial, body);
      } else {
        await pipeline(body, createWriteStream(partial));
      }
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
  }

  return {
    description: `folder ${base}`,

    async head(key) {
      const stats = await statInside(base, followLinks, fileOf(key));
      return stats && infoOf(key, stats);
    },

    async get(key, range?: ByteRange) {
      const stats = await statInside(base, followLinks, fileOf(key));
      if (!stats) {
        return undefined;
      }
      const body =
        stats.size === 0
          ? Readable.from([])
          : createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
      return { ...infoOf(key, stats), body };
    },

    put,

    async importFolder(dir, prefix) {
      assertPrefix(prefix);
      const target = path.join(base, ...prefix.split('/').filter(Boolean));
      await mkdir(path.dirname(target), { recursive: true });
      try {
        // the usual case: a staged folder beside the objects, and nothing there yet
        await rename(dir, target);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (!['ENOTEMPTY', 'EEXIST', 'EXDEV'].includes(code)) {
          throw error;
        }
      }
      for (const file of await filesUnder(dir)) {
        await put(prefix + file, createReadStream(path.join(dir, ...file.split('/'))));
      }
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },

    list: (prefix, limit) => listUnder(base, prefix, limit),

    async deletePrefix(prefix) {
      const found = await listUnder(base, prefix);
      await Promise.all(found.map((info) => rm(fileOf(info.key), { force: true })));
      if (prefix.endsWith('/')) {
        // the folder itself, with whatever was not an object (partial files, links)
        await rm(path.join(base, ...prefix.split('/').filter(Boolean)), {
          recursive: true,
          force: true,
        });
      }
      return found.length;
    },

    async check() {
      await mkdir(base, { recursive: true });
      const probe = path.join(base, `.check-${randomUUID()}.partial`);
      try {
        await writeFile(probe, '');
      } catch (error) {
        throw new Error(`The folder ${base} cannot be written: ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        await rm(probe, { force: true });
      }
    },

    scoped(prefix) {
      assertPrefix(prefix);
      return createLocalStorage(path.join(base, ...prefix.split('/').filter(Boolean)), options);
    },
  };
}
