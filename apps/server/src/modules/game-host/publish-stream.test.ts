import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { brotliDecompressSync } from 'node:zlib';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { gameBuilds, games } from '../../db/schema.js';
import { createLocalInvalidationBus } from '../../lib/invalidation-bus.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { createS3Client, createS3Storage } from '../../lib/storage/s3-storage.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { useTestBucket } from '../../test/test-bucket.js';
import { compressBuild } from './compress.js';
import { detectBuild, headsIn, removeLeftOut } from './detect.js';
import { createGameHost, type GameHost } from './service.js';
import { makeZip } from './test-zips.js';
import { unpackZip } from './zip.js';

/*
 * On a bucket (prefersStreams), an upload goes entry by entry from the zip into the bucket:
 * .incoming never holds an unpacked folder, the build's facts and objects are those of the
 * unpacked path, and a put that fails part-way leaves nothing live and no object of the version.
 */

const s3 = useTestBucket('publish-stream');
const hasServer = s3.available;

let app: TestApp;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'publish-stream-'));
  if (hasServer) {
    app = await startTestApp();
  }
});

afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A request whose body is `zip`, as the upload route hands it to the publisher. */
function requestOf(zip: Buffer): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = { 'content-length': String(zip.length) };
  req.push(zip);
  req.push(null);
  req.complete = true;
  return req;
}

interface Observed {
  storage: ObjectStorage;
  /** What .incoming held at each put (names; a folder ends with '/'). */
  seen: string[][];
  host: GameHost;
  incoming: string;
}

/** A new bucket's games/ prefix. */
async function newBucket(): Promise<ObjectStorage> {
  const settings = await s3.server().bucket(`stream-${randomBytes(4).toString('hex')}`);
  return createS3Storage(createS3Client(settings), settings, 'games/');
}

/** A game host on `bucket`, whose puts note .incoming and fail from the `failAt`th on. */
async function hostOnBucket(bucket: ObjectStorage, failAt = Infinity): Promise<Observed> {
  const gamesDir = mkdtempSync(path.join(work, 'games-'));
  const incoming = path.join(gamesDir, '.incoming');
  const seen: string[][] = [];
  const storage: ObjectStorage = {
    ...bucket,
    async put(key, body, options) {
      seen.push(
        readdirSync(incoming, { withFileTypes: true }).map(
          (entry) => entry.name + (entry.isDirectory() ? '/' : ''),
        ),
      );
      if (seen.length >= failAt) {
        throw new Error('the bucket went away mid-publish');
      }
      return bucket.put(key, body, options);
    },
  };
  const host = await createGameHost({
    config: { ...app.deps.config, gamesHost: { ...app.deps.config.gamesHost, dir: gamesDir } },
    database: app.deps.database,
    bus: createLocalInvalidationBus(),
    demoDir: mkdtempSync(path.join(work, 'no-demos-')),
    storage,
  });
  return { storage, seen, host, incoming };
}

async function newGame(host: GameHost): Promise<string> {
  const gameId = uniqueName('Streamed');
  await app.deps.database.db
    .insert(games)
    .values({ id: gameId, title: gameId, section: 'html5', published: true, sortOrder: 1e9 });
  await host.catalogue.refresh();
  return gameId;
}

/** A Godot 4 export with threads, a left-out .exe, an incompressible .wasm and a 10 MB .pck. */
function godotZip(): Promise<Buffer> {
  return makeZip({
    'index.html': `<script>const GODOT_CONFIG = {"executable":"index"}; const GODOT_THREADS_ENABLED = true;</script>${'<p>page</p>'.repeat(300)}`,
    'index.js': 'function engine() { return 1; }\n'.repeat(2000),
    'index.wasm': randomBytes(64 * 1024),
    'index.pck': Buffer.concat([randomBytes(6 * 1024 * 1024), Buffer.alloc(4 * 1024 * 1024)]),
    'index.pck.gz': randomBytes(2048),
    'small.txt': 'under a kilobyte',
    'Game.exe': randomBytes(4096),
  });
}

/** What the unpacked path makes of `zip`: the build's facts and the objects it writes. */
async function unpackedFacts(zip: Buffer) {
  const dir = mkdtempSync(path.join(work, 'unpacked-'));
  const zipFile = `${dir}.zip`;
  writeFileSync(zipFile, zip);
  const limits = { maxFiles: 100, maxUnpackedBytes: 1e9, maxRatio: 1000 };
  const { kept, leftOut } = await removeLeftOut(dir, await unpackZip(zipFile, dir, limits));
  const paths = kept.map((file) => file.path);
  const detection = await detectBuild(paths, headsIn(dir));
  const { compressedBytes, made } = await compressBuild(dir, kept);
  const bytes = kept.reduce((sum, file) => sum + file.size, 0);
  const facts = { ...detection, files: kept.length, bytes, compressedBytes, leftOut };
  return { facts, keys: [...paths, ...made].sort() };
}

describe.skipIf(!hasServer)('publishing a zip into a bucket', () => {
  it('streams entry by entry (no unpacked folder) and records the facts the unpacked path does', async () => {
    const { host, seen, storage, incoming } = await hostOnBucket(await newBucket());
    const gameId = await newGame(host);
    const zip = await godotZip();
    const expected = await unpackedFacts(zip);

    const build = await host.publisher.publishUpload(gameId, requestOf(zip), {
      actor: null,
      activate: true,
    });

    expect(build).toMatchObject({ ...expected.facts, engine: 'godot4', needsThreads: true });
    expect(build.leftOut).toEqual(['Game.exe']);
    const prefix = `${gameId}/${build.version}/`;
    const keys = (await storage.list(prefix)).map((info) => info.key.slice(prefix.length));
    expect(keys).toEqual(expected.keys);
    expect(expected.keys).toContain('index.js.br');
    expect(expected.keys).not.toContain('index.wasm.br');
    const sibling = await storage.get(`${prefix}index.js.br`);
    const original = await storage.get(`${prefix}index.js`);
    if (!sibling || !original) {
      throw new Error('index.js or its brotli sibling is missing');
    }
    expect(brotliDecompressSync(await buffer(sibling.body))).toEqual(await buffer(original.body));
    // every put saw the zip alone in .incoming, and nothing stays after
    // 6 files and 7 siblings tried (random .wasm bytes do not shrink: its two were deleted)
    expect(seen.length).toBe(13);
    for (const names of seen) {
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^[0-9a-f-]+\.zip$/);
    }
    expect(readdirSync(incoming)).toEqual([]);
    await host.catalogue.refresh();
    expect(host.catalogue.get(gameId)?.game.liveVersion).toBe(build.version);
  });

  it('leaves nothing live and no object of the version when a put fails part-way', async () => {
    const bucket = await newBucket();
    const healthy = await hostOnBucket(bucket);
    const gameId = await newGame(healthy.host);
    const zip = await godotZip();
    const first = await healthy.host.publisher.publishUpload(gameId, requestOf(zip), {
      actor: null,
      activate: true,
    });
    const failing = await hostOnBucket(bucket, 4);
    const keysBefore = (await healthy.storage.list(`${gameId}/`)).map((info) => info.key);
    const builds = async () =>
      (await app.deps.database.db.select().from(gameBuilds).where(eq(gameBuilds.gameId, gameId)))
        .length;

    await expect(
      failing.host.publisher.publishUpload(gameId, requestOf(zip), {
        actor: null,
        activate: true,
      }),
    ).rejects.toThrow('the bucket went away mid-publish');

    await failing.host.catalogue.refresh();
    expect(failing.host.catalogue.get(gameId)?.game.liveVersion).toBe(first.version);
    expect(await builds()).toBe(1);
    // the first build's objects and nothing else: the failed version's prefix was deleted
    expect((await bucket.list(`${gameId}/`)).map((info) => info.key)).toEqual(keysBefore);
    expect(keysBefore.every((key) => key.startsWith(`${gameId}/${first.version}/`))).toBe(true);
    expect(failing.seen.length).toBeGreaterThanOrEqual(4);
    expect(readdirSync(failing.incoming)).toEqual([]);
    const live = await bucket.get(`${gameId}/${first.version}/index.html`);
    expect(live?.size).toBeGreaterThan(0);
  });
});
