import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { API_ERRORS } from '@portfolio/types/errors';

import { createS3Client, createS3Storage, type S3Settings } from '../../lib/storage/s3-storage.js';
import { makeZip } from '../../modules/game-host/test-zips.js';
import { hasS3Server, S3_SERVER_MISSING, startS3Server, type TestS3Server } from '../s3-server.js';
import { type AppProcess, Browser, FAULT_ADMIN, signIn, sleep, startApp } from './services.js';

/*
 * One server process keeping its builds and media in a bucket (STORAGE=s3) of a private S3 test
 * server (moto_server, else s3rver), which is stopped mid-publish and while serving, then started
 * again. moto keeps objects in memory only: a restart is seeded with the objects read out before
 * the outage (`snapshot()`), which is what a real bucket would still hold.
 */

let s3: TestS3Server | undefined;
let app: AppProcess | undefined;
let admin: Browser;
let settings: S3Settings;
const bucket = `fault-${randomBytes(4).toString('hex')}`;

if (!hasS3Server) {
  console.warn(S3_SERVER_MISSING);
}

beforeAll(async () => {
  if (!hasS3Server) {
    return;
  }
  s3 = await startS3Server();
  settings = await s3.bucket(bucket);
  app = await startApp(s3.envFor(bucket));
  admin = await signIn(app, FAULT_ADMIN.username, FAULT_ADMIN.password, false);
});
afterAll(async () => {
  if (app && app.child.exitCode === null) {
    await app.terminate();
  }
  await s3?.stop();
});

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

/** PUT a build as the admin: its status and error code, bounded. */
async function upload(gameId: string, zip: Buffer) {
  const server = app as AppProcess;
  const response = await fetch(`${server.url}/api/admin/games/${gameId}/build`, {
    method: 'PUT',
    headers: { origin: server.url, 'content-type': 'application/zip', cookie: admin.cookieHeader },
    body: zip,
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, code: body.error?.code, message: body.error?.message };
}

/** The game's live version and its play address, as a guest's GET /api/games shows them. */
async function liveOf(gameId: string) {
  const server = app as AppProcess;
  const { body } = await new Browser().call<{
    games: { id: string; version: number | null; playUrl: string | null }[];
  }>(server.url, 'GET', '/api/games');
  const game = body.games.find((entry) => entry.id === gameId);
  return { version: game?.version, playUrl: game?.playUrl ?? '' };
}

const page = (marker: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>${marker}</title></head><body>${marker}</body></html>`;

/** Fetches `url` until it answers `status` (at most `ms`); the last status. */
async function untilStatus(url: string, status: number, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  let last = 0;
  while (Date.now() < deadline) {
    last = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (last === status) {
      return last;
    }
    await sleep(250);
  }
  return last;
}

async function createGame(): Promise<string> {
  const gameId = `S3Fault${randomBytes(3).toString('hex')}`;
  const created = await admin.call((app as AppProcess).url, 'POST', '/api/admin/games', {
    id: gameId,
    title: `S3 fault ${gameId}`,
    description: 'Published while the bucket goes away.',
    instructions: 'Watch.',
    section: 'html5',
    access: 'public',
  });
  expect(created.status).toBe(201);
  const first = await makeZip({
    'index.html': page('version one'),
    'notes.txt': 'never asked for',
  });
  expect((await upload(gameId, first)).status).toBe(201);
  const published = await admin.call(
    (app as AppProcess).url,
    'PATCH',
    `/api/admin/games/${gameId}`,
    {
      published: true,
    },
  );
  expect(published.status).toBe(200);
  return gameId;
}

/** Many incompressible files: the publish writes objects for a while. */
async function bigBuild(marker: string): Promise<Buffer> {
  const files: Record<string, Buffer | string> = { 'index.html': page(marker) };
  for (let n = 0; n < 300; n++) {
    files[`assets/part-${n}.bin`] = randomBytes(16 * 1024);
  }
  return makeZip(files, { compress: false });
}

/** Waits until the bucket holds an object under `prefix` (at most 60 s); whether it did. */
async function untilWritten(prefix: string): Promise<boolean> {
  const storage = createS3Storage(createS3Client(settings), settings);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const found = await storage.list(prefix, 1).catch(() => []);
    if (found.length > 0) {
      return true;
    }
    await sleep(20);
  }
  return false;
}

describe.skipIf(!hasS3Server)('the S3 server stopped', () => {
  it('mid-publish: the upload answers 503 STORAGE_UNAVAILABLE, nothing live changes, and publishing works once it is back', async () => {
    const server = s3 as TestS3Server;
    const gameId = await createGame();
    const before = await liveOf(gameId);
    expect(before.version).toBe(1);
    expect(await (await fetch(before.playUrl)).text()).toContain('version one');
    // what the bucket holds before the publish: a restarted moto is seeded with it
    await server.snapshot();

    const publishing = timed(async () => upload(gameId, await bigBuild('version two')));
    expect(await untilWritten(`games/${gameId}/2/`)).toBe(true);
    await server.stop({ keep: true });
    const { result, ms } = await publishing;
    expect(result).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' });
    expect(result.message).toBe(API_ERRORS.STORAGE_UNAVAILABLE.message);
    expect(ms).toBeLessThan(30_000);

    // during the outage: the catalogue still names version one; its page, fetched before, is
    // served from the disk cache (past send-object's 5 s of trust); a file of it never fetched
    // answers 503 at once
    expect((await liveOf(gameId)).version).toBe(1);
    await sleep(5500);
    const cached = await fetch(before.playUrl, { signal: AbortSignal.timeout(15_000) });
    expect(cached.status).toBe(200);
    expect(await cached.text()).toContain('version one');
    const notes = new URL('notes.txt', before.playUrl).href;
    const during = await timed(() => fetch(notes, { signal: AbortSignal.timeout(15_000) }));
    expect(during.result.status).toBe(503);
    expect(during.result.headers.get('retry-after')).toBe('5');
    expect(during.ms).toBeLessThan(5000);

    await server.start();
    expect(await untilStatus(before.playUrl, 200, 15_000)).toBe(200);
    expect(await (await fetch(before.playUrl)).text()).toContain('version one');
    const again = await upload(gameId, await makeZip({ 'index.html': page('version two') }));
    expect(again.status).toBe(201);
    const after = await liveOf(gameId);
    expect(after.version).toBe(2);
    expect(await (await fetch(after.playUrl)).text()).toContain('version two');
  });

  it('while serving: requests fail 503 within seconds during the outage and recover after a restart', async () => {
    const server = s3 as TestS3Server;
    const gameId = await createGame();
    const { playUrl } = await liveOf(gameId);
    const media = await fetch(`${(app as AppProcess).url}/api/admin/media`, {
      method: 'POST',
      headers: {
        origin: (app as AppProcess).url,
        'content-type': 'text/plain',
        'x-file-name': 'outage.txt',
        cookie: admin.cookieHeader,
      },
      body: 'kept through a restart',
      signal: AbortSignal.timeout(15_000),
    });
    const mediaBody = (await media.json()) as { media?: { url: string } };
    const mediaUrl = mediaBody.media ? `${(app as AppProcess).url}${mediaBody.media.url}` : '';
    await server.snapshot();
    await server.stop({ keep: true });

    const outage: { url: string; status: number; ms: number }[] = [];
    for (const url of [playUrl, mediaUrl].filter(Boolean)) {
      for (let n = 0; n < 3; n++) {
        const { result, ms } = await timed(() =>
          fetch(url, { signal: AbortSignal.timeout(15_000) }).then((response) => response.status),
        );
        outage.push({ url, status: result, ms });
      }
    }
    // the rest of the site does not need the bucket
    expect((await new Browser().call((app as AppProcess).url, 'GET', '/api/games')).status).toBe(
      200,
    );
    await server.start();

    expect(await untilStatus(playUrl, 200, 15_000)).toBe(200);
    expect(await (await fetch(playUrl)).text()).toContain('version one');
    if (mediaUrl) {
      expect(await untilStatus(mediaUrl, 200, 15_000)).toBe(200);
    }
    for (const attempt of outage) {
      expect(attempt, attempt.url).toMatchObject({ status: 503 });
      expect(attempt.ms, attempt.url).toBeLessThan(5000);
    }
  });
});

describe.skipIf(!hasS3Server)('a bucket that does not exist', () => {
  it('stops the server at start with a message naming the bucket and the endpoint', async () => {
    const server = s3 as TestS3Server;
    const started = startApp(server.envFor('no-such-bucket-here'));
    await expect(started).rejects.toThrow(
      `S3_BUCKET: the bucket 'no-such-bucket-here' at ${server.endpoint} does not exist`,
    );
  });
});
