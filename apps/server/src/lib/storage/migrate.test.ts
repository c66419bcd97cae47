import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useTestBucket } from '../../test/test-bucket.js';
import { filesUnder, type ObjectStorage } from './object-storage.js';
import { migrateStorage, type MigrationArea } from './migrate.js';
import { createS3Client, createS3Storage } from './s3-storage.js';
import { localSiteStorage, type SiteStorage } from './site-storage.js';

const s3 = useTestBucket('storage-migrate');
const hasServer = s3.available;
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'migrate-test-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A data folder as a site leaves it: two builds with .br/.gz siblings, media, work in progress. */
function buildDataFolder(): { gamesDir: string; mediaDir: string } {
  const root = path.join(work, randomUUID());
  const file = (relative: string, bytes: Buffer | string) => {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  };
  for (const version of ['1', '2']) {
    const script = Buffer.from(`console.log(${JSON.stringify(randomBytes(4000).toString('hex'))})`);
    file(`games/Moved/${version}/index.html`, `<html>version ${version}</html>`);
    file(`games/Moved/${version}/game.js`, script);
    file(`games/Moved/${version}/game.js.br`, brotliCompressSync(script));
    file(`games/Moved/${version}/game.js.gz`, gzipSync(script));
    file(`games/Moved/${version}/assets/level one.bin`, randomBytes(300_000));
  }
  file('games/Moved/thumbnail.png', randomBytes(2000));
  file('games/Moved/achievements/first.png', randomBytes(500));
  file('games/.incoming/half-uploaded.zip', 'not a site file');
  const hash = randomBytes(32).toString('hex');
  file(`media/${hash}.png`, randomBytes(50_000));
  file(`media/${hash}-640.webp`, randomBytes(9000));
  file('media/empty.txt', '');
  file('media/.incoming/upload/part', 'work in progress');
  return { gamesDir: path.join(root, 'games'), mediaDir: path.join(root, 'media') };
}

/** Every site file under the folders (no .incoming), with its bytes. */
async function bytesOf(dirs: { gamesDir: string; mediaDir: string }) {
  const out = new Map<string, Buffer>();
  for (const [area, dir] of Object.entries({ games: dirs.gamesDir, media: dirs.mediaDir })) {
    for (const file of await filesUnder(dir)) {
      if (!file.startsWith('.incoming/')) {
        out.set(`${area}/${file}`, readFileSync(path.join(dir, file)));
      }
    }
  }
  return out;
}

/** A new prefix of the test bucket, as the site's two storages. */
function freshBucket(): SiteStorage {
  const settings = s3.settings();
  const bucket = createS3Storage(createS3Client(settings), settings, `${randomUUID()}/`);
  return { games: bucket.scoped('games/'), media: bucket.scoped('media/') };
}

const areas = (from: SiteStorage, to: SiteStorage): MigrationArea[] =>
  (['games', 'media'] as const).map((name) => ({ name, from: from[name], to: to[name] }));

/** `storage` whose puts fail after the first `allowed`, as a run stopped part-way. */
function failingAfter(storage: ObjectStorage, allowed: number): ObjectStorage {
  let puts = 0;
  return {
    ...storage,
    async put(key, body, options) {
      puts += 1;
      if (puts > allowed) {
        if (body instanceof Readable) {
          body.destroy();
        }
        throw new Error('connection reset');
      }
      return storage.put(key, body, options);
    },
  };
}

describe.skipIf(!hasServer)('npm run storage:migrate', () => {
  it('moves a folder into the bucket and back into a fresh folder, byte for byte', async () => {
    const source = buildDataFolder();
    const bucket = freshBucket();
    const toBucket = await migrateStorage(areas(localSiteStorage(source), bucket));
    const expected = await bytesOf(source);
    expect(toBucket).toMatchObject({ files: expected.size, copied: expected.size, failed: [] });
    expect((await bucket.games.list('')).map((info) => info.key)).not.toContain(
      '.incoming/half-uploaded.zip',
    );

    const back = {
      gamesDir: path.join(work, randomUUID()),
      mediaDir: path.join(work, randomUUID()),
    };
    const toFolders = await migrateStorage(areas(bucket, localSiteStorage(back)));
    expect(toFolders).toMatchObject({ copied: expected.size, failed: [] });
    expect(await bytesOf(back)).toEqual(expected);
  });

  it('copies nothing the second time, in either direction', async () => {
    const source = buildDataFolder();
    const bucket = freshBucket();
    const folders = localSiteStorage(source);
    const first = await migrateStorage(areas(folders, bucket));
    const again = await migrateStorage(areas(folders, bucket));
    expect(again).toMatchObject({ copied: 0, skipped: first.files, failed: [] });
    const backAgain = await migrateStorage(areas(bucket, folders));
    expect(backAgain).toMatchObject({ copied: 0, skipped: first.files, failed: [] });
  });

  it('finishes a run stopped part-way when run again, copying only what is missing', async () => {
    const source = buildDataFolder();
    const bucket = freshBucket();
    const broken = { games: failingAfter(bucket.games, 3), media: failingAfter(bucket.media, 1) };
    const stopped = await migrateStorage(areas(localSiteStorage(source), broken), {
      concurrency: 2,
    });
    expect(stopped.copied).toBe(4);
    expect(stopped.failed.length).toBe(stopped.files - 4);
    expect(stopped.failed[0]?.error).toMatch(/^(games|media)\/.+: connection reset$/);

    const rerun = await migrateStorage(areas(localSiteStorage(source), bucket));
    expect(rerun).toMatchObject({ copied: stopped.files - 4, skipped: 4, failed: [] });
    const back = {
      gamesDir: path.join(work, randomUUID()),
      mediaDir: path.join(work, randomUUID()),
    };
    await migrateStorage(areas(bucket, localSiteStorage(back)));
    expect(await bytesOf(back)).toEqual(await bytesOf(source));
  });

  it('copies again an object of the wrong size or bytes at the destination', async () => {
    const source = buildDataFolder();
    const bucket = freshBucket();
    const folders = localSiteStorage(source);
    await migrateStorage(areas(folders, bucket));
    await bucket.games.put('Moved/1/game.js', Buffer.from('truncated'));
    const html = readFileSync(path.join(source.gamesDir, 'Moved/2/index.html'));
    // same size, other bytes, and no checksum kept: read to compare
    await bucket.games.put('Moved/2/index.html', Buffer.alloc(html.length, 'x'));
    const events: string[] = [];
    const repaired = await migrateStorage(areas(folders, bucket), {
      onObject: (event) => event.outcome === 'copied' && events.push(event.name),
    });
    expect(events.sort()).toEqual(['games/Moved/1/game.js', 'games/Moved/2/index.html']);
    expect(repaired.failed).toEqual([]);
    const read = await bucket.games.get('Moved/1/game.js');
    expect(read?.size).toBe(readFileSync(path.join(source.gamesDir, 'Moved/1/game.js')).length);
  });

  it('fails a copy that does not arrive whole, naming it, and removes it', async () => {
    const source = buildDataFolder();
    const bucket = freshBucket();
    const lossy: ObjectStorage = {
      ...bucket.media,
      async put(key, body, options) {
        // drops the last byte of every object on its way
        const chunks: Buffer[] = [];
        for await (const chunk of body instanceof Readable ? body : Readable.from([body])) {
          chunks.push(chunk as Buffer);
        }
        const all = Buffer.concat(chunks);
        return bucket.media.put(key, all.subarray(0, Math.max(0, all.length - 1)), options);
      },
    };
    const run = await migrateStorage(
      areas(localSiteStorage(source), { games: bucket.games, media: lossy }),
    );
    const names = run.failed.map((failure) => failure.name).sort();
    expect(names.filter((name) => name.startsWith('media/'))).toHaveLength(2);
    expect(run.failed[0]?.error).toMatch(
      /^media\/.+: checksum mismatch: \d+ bytes sent, \d+ arrived; the copy was removed$/,
    );
    expect(await bucket.media.list('')).toEqual([
      expect.objectContaining({ key: 'empty.txt', size: 0 }),
    ]);
  });
});
