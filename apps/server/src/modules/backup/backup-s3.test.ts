import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase, type Database } from '../../db/client.js';
import { createS3Client, createS3Storage } from '../../lib/storage/s3-storage.js';
import type { SiteStorage } from '../../lib/storage/site-storage.js';
import { useTestBucket } from '../../test/test-bucket.js';
import { BackupError, createBackup, restoreBackup } from './archive.js';

/*
 * STORAGE=s3: a backup reads the bucket's games/ and media/ into the archive under the folder
 * layout's paths, and a restore writes them into an empty bucket; a bucket that holds objects
 * is refused, unless the archive was made without files (--no-files).
 */

const run = promisify(execFile);
const s3 = useTestBucket('backup-restore');
const hasServer = s3.available;

let database: Database;
let work: string;

/** A new prefix of the file's bucket, as a site's two storages. */
function newBucket(): SiteStorage {
  const settings = s3.settings();
  const bucket = createS3Storage(createS3Client(settings), settings, `${randomUUID()}/`);
  return { games: bucket.scoped('games/'), media: bucket.scoped('media/') };
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'backup-s3-test-'));
  if (hasServer) {
    database = await openDatabase({ dataDir: 'memory://', migrate: false });
  }
});
afterAll(async () => {
  await database?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A bucket as the site leaves it: a build with .br/.gz siblings, a thumbnail, media. */
async function siteBucket(): Promise<SiteStorage> {
  const storage = newBucket();
  const script = Buffer.from(`console.log('${randomBytes(2000).toString('hex')}')`);
  await storage.games.put('Kept/3/index.html', Buffer.from('<html>kept</html>'));
  await storage.games.put('Kept/3/game.js', script);
  await storage.games.put('Kept/3/game.js.br', brotliCompressSync(script));
  await storage.games.put('Kept/3/game.js.gz', gzipSync(script));
  await storage.games.put('Kept/thumbnail.png', randomBytes(1500));
  const hash = randomBytes(32).toString('hex');
  await storage.media.put(`${hash}.png`, randomBytes(40_000));
  await storage.media.put(`${hash}-320.webp`, randomBytes(5000));
  return storage;
}

/** Every object of both storages with its bytes, keyed `<area>/<key>`. */
async function objectsOf(storage: SiteStorage): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const area of ['games', 'media'] as const) {
    const each = storage[area];
    for (const info of await each.list('')) {
      const read = await each.get(info.key);
      out.set(`${area}/${info.key}`, read ? await buffer(read.body) : Buffer.alloc(0));
    }
  }
  return out;
}

/** A fresh place to restore into: DATA_DIR and the folders under it, none of them there yet. */
function freshTarget(storage: SiteStorage) {
  const dataDir = path.join(work, randomUUID());
  return {
    dataDir,
    gamesDir: path.join(dataDir, 'games'),
    mediaDir: path.join(dataDir, 'media'),
    storage,
  };
}

const noFolders = () => ({
  gamesDir: path.join(work, 'no-games'),
  mediaDir: path.join(work, 'no-media'),
});

describe.skipIf(!hasServer)('backup and restore with STORAGE=s3', () => {
  it('archives the objects under the folder layout and restores them into an empty bucket', async () => {
    const source = await siteBucket();
    const archive = path.join(work, `${randomUUID()}.tar.gz`);
    const manifest = await createBackup({ database, ...noFolders(), storage: source }, archive);
    expect(manifest).toMatchObject({ gameFiles: 5, mediaFiles: 2 });
    const { stdout } = await run('tar', ['-tzf', archive]);
    expect(stdout).toContain('./games/Kept/3/game.js.br');
    expect(stdout).toContain('./games/Kept/thumbnail.png');

    const restored = newBucket();
    await restoreBackup(archive, freshTarget(restored));
    expect(await objectsOf(restored)).toEqual(await objectsOf(source));
  });

  it('refuses to restore into a bucket that holds objects, before touching the database', async () => {
    const source = await siteBucket();
    const archive = path.join(work, `${randomUUID()}.tar.gz`);
    await createBackup({ database, ...noFolders(), storage: source }, archive);
    const occupied = newBucket();
    await occupied.media.put('left-behind.png', Buffer.from('x'));
    const target = freshTarget(occupied);
    const restore = restoreBackup(archive, target);
    await expect(restore).rejects.toBeInstanceOf(BackupError);
    await expect(restore).rejects.toThrow(
      `The bucket's media/ (${occupied.media.description}) is not empty: restore into an empty bucket`,
    );
    expect(existsSync(path.join(target.dataDir, 'pglite'))).toBe(false);
    expect([...(await objectsOf(occupied)).keys()]).toEqual(['media/left-behind.png']);
  });

  it('leaves the files out with --no-files, and its restore leaves the bucket as it is', async () => {
    const source = await siteBucket();
    const archive = path.join(work, `${randomUUID()}.tar.gz`);
    const manifest = await createBackup(
      { database, ...noFolders(), storage: source, files: false },
      archive,
    );
    expect(manifest).toMatchObject({ gameFiles: 0, mediaFiles: 0, filesLeftOut: true });
    const { stdout } = await run('tar', ['-tzf', archive]);
    expect(stdout).not.toMatch(/games\/|media\//);

    const before = await objectsOf(source);
    const target = freshTarget(source);
    await restoreBackup(archive, target);
    expect(existsSync(path.join(target.dataDir, 'pglite'))).toBe(true);
    expect(await objectsOf(source)).toEqual(before);
  });
});
