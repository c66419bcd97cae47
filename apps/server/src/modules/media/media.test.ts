import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import exifReader from 'exif-reader';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  MediaListResponse,
  MediaUploadResponse,
  type MediaUsageResponse,
  type StoredMedia,
} from '@portfolio/types/media';

import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { isTestStorageS3 } from '../../test/s3-server.js';
import { signedInClient } from '../../test/factories.js';
import type { MediaReferenceSource } from './service.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const LIMITS = { image: 1024 * 1024, video: 1024 * 1024, audio: 2 * 1024 * 1024 };

let app: TestApp;
let admin: TestClient;
let mediaDir: string;
/** URLs the test's own reference source says content still uses. */
const referenced = new Set<string>();

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'media-test-'));
  // work a process stopped in the middle of, two days ago
  mkdirSync(path.join(mediaDir, '.incoming', 'stale'), { recursive: true });
  writeFileSync(path.join(mediaDir, '.incoming', 'stale', 'upload'), 'half a file');
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  utimesSync(path.join(mediaDir, '.incoming', 'stale'), twoDaysAgo, twoDaysAgo);
  // uploads are content-addressed rows: a database of its own, so another run's rows (on a
  // shared PostgreSQL) never answer for files this app's folder does not have
  app = await startIsolatedTestApp({ media: { dir: mediaDir, limits: LIMITS } });
  const source: MediaReferenceSource = {
    kind: 'test project',
    titlesUsing: (urls) =>
      Promise.resolve(urls.some((url) => referenced.has(url)) ? ['Tanks'] : []),
  };
  app.deps.media.addReferenceSource(source);
  ({ client: admin } = await signedInClient(app, 'admin'));
}, 60_000);

afterAll(async () => {
  await app.stop();
  rmSync(mediaDir, { recursive: true, force: true });
});

interface UploadAnswer {
  status: number;
  body: MediaUploadResponse & { error?: { code: string; message: string } };
}

async function upload(
  body: Buffer,
  fileName: string,
  options: {
    contentType?: string;
    client?: TestClient | null;
    headers?: Record<string, string>;
  } = {},
): Promise<UploadAnswer> {
  const client = options.client === undefined ? admin : options.client;
  const response = await fetch(`${app.url}/api/admin/media`, {
    method: 'POST',
    body,
    headers: {
      'content-type': options.contentType ?? 'application/octet-stream',
      'x-file-name': encodeURIComponent(fileName),
      ...(client ? { cookie: client.cookieHeader } : {}),
      ...options.headers,
    },
  });
  const answer: unknown = JSON.parse(await response.text());
  // every stored answer is the shared contract's shape
  if (response.ok) {
    MediaUploadResponse.parse(answer);
  }
  return { status: response.status, body: answer as UploadAnswer['body'] };
}

/** Every file under MEDIA_DIR (the upload area included), and the table's rows. */
async function snapshot() {
  const files = readdirSync(mediaDir, { recursive: true, encoding: 'utf8' }).sort();
  const list = await admin.get<MediaListResponse>('/api/admin/media');
  const { media } = MediaListResponse.parse(list.body);
  return { files, ids: media.map((item) => item.id).sort() };
}

async function fetchMedia(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(app.url + url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A photo-like JPEG whose EXIF holds a camera position, read back to prove it is there. */
async function jpegWithGps(width: number, height: number): Promise<Buffer> {
  const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Pocket 3' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 1234/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3900/100',
      },
    })
    .toBuffer();
  const metadata = await sharp(jpeg).metadata();
  expect(metadata.exif).toBeDefined();
  expect(exifReader(metadata.exif ?? Buffer.alloc(0)).GPSInfo?.GPSLatitude).toEqual([
    51, 30, 12.34,
  ]);
  return jpeg;
}

const pngOf = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

it('removes upload work left by a stopped process when it starts', () => {
  expect(readdirSync(path.join(mediaDir, '.incoming'))).toEqual([]);
});

/**
 * A GIF of `frames` 1×1 frames on a `width`×`height` canvas, written byte by byte: a few bytes a
 * frame, while a decoder paints each frame onto the whole canvas.
 */
function animatedGif(width: number, height: number, frames: number): Buffer {
  const screen = Buffer.alloc(13);
  screen.write('GIF89a', 0, 'latin1');
  screen.writeUInt16LE(width, 6);
  screen.writeUInt16LE(height, 8);
  screen[10] = 0x80; // a global colour table of two colours
  const parts = [screen, Buffer.from([0, 0, 0, 255, 255, 255])];
  // loop forever (NETSCAPE2.0)
  parts.push(Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0]));
  for (let frame = 0; frame < frames; frame++) {
    parts.push(Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0])); // 0.1 s a frame
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(1, 5);
    descriptor.writeUInt16LE(1, 7);
    parts.push(descriptor);
    // LZW, 3-bit codes: clear (4), the pixel's colour, end (5)
    const codes = 4 | ((frame % 2) << 3) | (5 << 6);
    parts.push(Buffer.from([2, 2, codes & 0xff, codes >> 8, 0]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A WAV of one second of 8 kHz 16-bit mono silence after `emptyChunks` empty chunks. */
function wavWithChunks(emptyChunks: number): Buffer {
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8); // PCM
  fmt.writeUInt16LE(1, 10); // mono
  fmt.writeUInt32LE(8000, 12);
  fmt.writeUInt32LE(16000, 16); // bytes a second
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const empty = Buffer.alloc(8);
  empty.write('junk', 0, 'latin1');
  const data = Buffer.alloc(8 + 16000);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(16000, 4);
  const body = Buffer.concat([fmt, ...Array.from({ length: emptyChunks }, () => empty), data]);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, body]);
}

describe('uploading media', () => {
  let jpegItem: StoredMedia;
  let jpeg: Buffer;

  it('stores a JPEG as WebP widths without its metadata (no GPS), with a thumbnail', async () => {
    jpeg = await jpegWithGps(1200, 800);
    const answer = await upload(jpeg, 'holiday photo.JPG', { contentType: 'image/jpeg' });
    expect(answer.status).toBe(201);
    expect(answer.body.existing).toBe(false);
    jpegItem = answer.body.media;
    expect(jpegItem).toMatchObject({ type: 'image', mime: 'image/jpeg', width: 1200, height: 800 });
    expect(jpegItem.originalName).toBe('holiday photo.JPG');
    expect(jpegItem.variants.map((variant) => variant.width)).toEqual([320, 640, 960, 1200]);
    expect(jpegItem.url).toBe(jpegItem.variants.at(-1)?.src);
    expect(jpegItem.thumbnail).toMatch(/^\/media\/[0-9a-f]{64}-thumb\.webp$/);
    for (const url of [...jpegItem.variants.map((variant) => variant.src), jpegItem.thumbnail]) {
      const { response, bytes } = await fetchMedia(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(bytes.includes('TestCam')).toBe(false);
    }
    const largest = await sharp((await fetchMedia(jpegItem.url)).bytes).metadata();
    expect([largest.width, largest.height]).toEqual([1200, 800]);
    // no file under MEDIA_DIR keeps the camera's data (the upload itself is not kept)
    for (const file of readdirSync(mediaDir)) {
      if (!file.startsWith('.')) {
        expect(readFileSync(path.join(mediaDir, file)).includes('TestCam')).toBe(false);
      }
    }
  });

  it('answers the same item for the same bytes, stored once', async () => {
    const before = await snapshot();
    const answer = await upload(jpeg, 'copy.jpeg');
    expect(answer.status).toBe(200);
    expect(answer.body.existing).toBe(true);
    expect(answer.body.media.id).toBe(jpegItem.id);
    expect(await snapshot()).toEqual(before);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    const sideways = await sharp(randomBytes(300 * 200 * 3), {
      raw: { width: 300, height: 200, channels: 3 },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const answer = await upload(sideways, 'sideways.jpg');
    expect(answer.status).toBe(201);
    expect(answer.body.media).toMatchObject({ width: 200, height: 300 });
    const stored = await sharp((await fetchMedia(answer.body.media.url)).bytes).metadata();
    expect([stored.width, stored.height]).toEqual([200, 300]);
  });

  it('stores a PNG smaller than the first width at its own width', async () => {
    const answer = await upload(await pngOf(200, 150), 'logo.png', { contentType: 'image/png' });
    expect(answer.status).toBe(201);
    expect(answer.body.media).toMatchObject({
      type: 'image',
      mime: 'image/png',
      width: 200,
      height: 150,
    });
    expect(answer.body.media.variants).toEqual([
      { src: expect.stringMatching(/-200\.webp$/) as string, width: 200, type: 'image/webp' },
    ]);
  });

  it.each([
    [
      'WebP',
      'pic.webp',
      () =>
        sharp({ create: { width: 700, height: 400, channels: 3, background: '#884422' } })
          .webp()
          .toBuffer(),
      'image/webp',
    ],
    [
      'AVIF',
      'pic.avif',
      () =>
        sharp({ create: { width: 500, height: 300, channels: 3, background: '#224488' } })
          .avif()
          .toBuffer(),
      'image/avif',
    ],
    [
      'GIF',
      'pic.gif',
      () =>
        sharp({ create: { width: 64, height: 48, channels: 3, background: '#448822' } })
          .gif()
          .toBuffer(),
      'image/gif',
    ],
  ])('stores a %s image', async (_label, name, make, mime) => {
    const bytes = await make();
    const { width, height } = await sharp(bytes).metadata();
    const answer = await upload(bytes, name);
    expect(answer.status).toBe(201);
    expect(answer.body.media).toMatchObject({ type: 'image', mime, width, height });
  });

  it('stores an MP4 as uploaded with its size and duration, served with ranges', async () => {
    const mp4 = fixture('sample.mp4');
    const answer = await upload(mp4, 'clip.mp4', { contentType: 'video/mp4' });
    expect(answer.status).toBe(201);
    const item = answer.body.media;
    expect(item).toMatchObject({
      type: 'video',
      mime: 'video/mp4',
      width: 320,
      height: 180,
      bytes: mp4.length,
      thumbnail: '/assets/default_video_thumbnail.jpg',
      variants: [],
    });
    expect(item.duration).toBeCloseTo(4, 1);
    expect(item.url).toMatch(/^\/media\/[0-9a-f]{64}\.mp4$/);

    const whole = await fetchMedia(item.url);
    expect(whole.response.headers.get('content-type')).toBe('video/mp4');
    expect(whole.response.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.bytes.equals(mp4)).toBe(true);

    const part = await fetchMedia(item.url, { range: 'bytes=1000-1999' });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get('content-range')).toBe(`bytes 1000-1999/${mp4.length}`);
    expect(part.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(part.bytes.equals(mp4.subarray(1000, 2000))).toBe(true);

    const tail = await fetchMedia(item.url, { range: 'bytes=-500' });
    expect(tail.response.status).toBe(206);
    expect(tail.bytes.equals(mp4.subarray(mp4.length - 500))).toBe(true);

    const beyond = await fetchMedia(item.url, { range: `bytes=${mp4.length + 10}-` });
    expect(beyond.response.status).toBe(416);
  });

  it.each([
    ['sample.webm', 'video', 'video/webm', 4, { width: 320, height: 180 }],
    ['sample.mp3', 'audio', 'audio/mpeg', 3.03, {}],
    ['sample.ogg', 'audio', 'audio/ogg', 3, {}],
    ['sample.wav', 'audio', 'audio/wav', 3, {}],
  ] as const)('stores %s with its duration', async (name, type, mime, duration, size) => {
    const answer = await upload(fixture(name), name);
    expect(answer.status).toBe(201);
    const item = answer.body.media;
    expect(item).toMatchObject({ type, mime, ...size });
    expect(item.duration).toBeCloseTo(duration, 1);
    expect(item.thumbnail).toBe(
      type === 'video'
        ? '/assets/default_video_thumbnail.jpg'
        : '/assets/default_audio_thumbnail.jpg',
    );
    const served = await fetchMedia(item.url, { range: 'bytes=0-99' });
    expect(served.response.status).toBe(206);
    expect(served.response.headers.get('content-type')).toMatch(new RegExp(`^${mime}`));
  });

  it('lists uploads newest first for the admin', async () => {
    const list = await admin.get<MediaListResponse>('/api/admin/media');
    expect(list.status).toBe(200);
    const ids = list.body.media.map((item) => item.id);
    expect(ids).toContain(jpegItem.id);
    expect(new Set(ids).size).toBe(ids.length);
    const times = list.body.media.map((item) => Date.parse(item.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('refusing uploads', () => {
  const cases: [
    string,
    () => Promise<{ body: Buffer; name: string; type?: string }>,
    number,
    string,
    RegExp,
  ][] = [
    [
      'an SVG',
      () =>
        Promise.resolve({
          body: Buffer.from(
            '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          ),
          name: 'logo.svg',
          type: 'image/svg+xml',
        }),
      415,
      'MEDIA_TYPE_REFUSED',
      /SVG images are not accepted/,
    ],
    [
      'an SVG named .png',
      () =>
        Promise.resolve({
          body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          name: 'logo.png',
        }),
      415,
      'MEDIA_TYPE_REFUSED',
      /SVG/,
    ],
    [
      'a PNG named .mp4',
      async () => ({ body: await pngOf(64, 64), name: 'movie.mp4', type: 'video/mp4' }),
      400,
      'MEDIA_NAME_MISMATCH',
      /named \.mp4 but its bytes are a PNG image, not an MP4 video/,
    ],
    [
      'a text file',
      () => Promise.resolve({ body: Buffer.from('hello, this is not media'), name: 'notes.txt' }),
      415,
      'MEDIA_TYPE_REFUSED',
      /not accepted/,
    ],
    [
      'an image over its limit',
      async () => ({
        body: await sharp(randomBytes(700 * 700 * 3), {
          raw: { width: 700, height: 700, channels: 3 },
        })
          .png({ compressionLevel: 0 })
          .toBuffer(),
        name: 'big.png',
      }),
      413,
      'MEDIA_TOO_LARGE',
      /limit of .* for image uploads \(MEDIA_MAX_IMAGE_BYTES\)/,
    ],
    [
      'a truncated JPEG',
      async () => {
        const whole = await jpegWithGps(640, 480);
        return { body: whole.subarray(0, Math.floor(whole.length * 0.6)), name: 'cut.jpg' };
      },
      400,
      'MEDIA_CORRUPT',
      /truncated or damaged/,
    ],
    [
      'a truncated PNG',
      async () => {
        const whole = await sharp(randomBytes(300 * 300 * 3), {
          raw: { width: 300, height: 300, channels: 3 },
        })
          .png()
          .toBuffer();
        return { body: whole.subarray(0, Math.floor(whole.length / 2)), name: 'cut.png' };
      },
      400,
      'MEDIA_CORRUPT',
      /truncated or damaged/,
    ],
    [
      'an MP4 without its index',
      () => Promise.resolve({ body: fixture('sample.mp4').subarray(0, 32), name: 'broken.mp4' }),
      400,
      'MEDIA_CORRUPT',
      /moov/,
    ],
    [
      'an empty file',
      () => Promise.resolve({ body: Buffer.alloc(0), name: 'empty.png' }),
      400,
      'MEDIA_EMPTY',
      /empty/,
    ],
  ];

  it.each(cases)(
    'refuses %s with a clear error and stores nothing',
    async (_label, make, status, code, message) => {
      const { body, name, type } = await make();
      const before = await snapshot();
      const answer = await upload(body, name, { contentType: type ?? 'application/octet-stream' });
      expect(answer.status).toBe(status);
      expect(answer.body.error?.code).toBe(code);
      expect(answer.body.error?.message).toMatch(message);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('refuses tiny files that would cost seconds of work, quickly, before decoding', async () => {
    // 2.3 KB: 100 frames on a 1600×1600 canvas, 256 million pixels to paint
    const gif = animatedGif(1600, 1600, 100);
    expect(gif.length).toBeLessThan(3000);
    // 1 MiB: 131,072 empty chunks before the audio
    const wav = wavWithChunks(128 * 1024);
    for (const [body, name, message] of [
      [
        gif,
        'bomb.gif',
        'The animation is too large to convert: 100 frames of 1600×1600 pixels are 256 million pixels, and the limit is 100 million (frames × width × height). Make it smaller or shorter and upload it again.',
      ],
      [
        wav,
        'chunks.wav',
        'The WAV file has more than 1,000 chunks before its audio data: it is not a recording a browser plays. Export it again as a plain WAV file.',
      ],
    ] as const) {
      const before = await snapshot();
      const started = performance.now();
      const answer = await upload(body, name);
      const took = performance.now() - started;
      expect(answer.status, name).toBe(400);
      expect(answer.body.error, name).toMatchObject({ code: 'MEDIA_TOO_COMPLEX', message });
      expect(took, name).toBeLessThan(2000);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('still stores a real animation and a WAV with a few extra chunks', async () => {
    const gif = await upload(animatedGif(64, 48, 20), 'loop.gif');
    expect(gif.status).toBe(201);
    expect(gif.body.media).toMatchObject({
      type: 'image',
      mime: 'image/gif',
      width: 64,
      height: 48,
    });
    const wav = await upload(wavWithChunks(3), 'tagged.wav');
    expect(wav.status).toBe(201);
    expect(wav.body.media).toMatchObject({ type: 'audio', mime: 'audio/wav', duration: 1 });
  });

  it('refuses a video over its limit while it streams (no length declared)', async () => {
    const mp4 = fixture('sample.mp4');
    const body = Buffer.concat([mp4, randomBytes(LIMITS.video)]);
    const before = await snapshot();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < body.length; offset += 64 * 1024) {
          controller.enqueue(body.subarray(offset, offset + 64 * 1024));
        }
        controller.close();
      },
    });
    const response = await fetch(`${app.url}/api/admin/media`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: {
        'content-type': 'video/mp4',
        'x-file-name': 'long.mp4',
        cookie: admin.cookieHeader,
      },
    }).catch(() => undefined);
    // the answer is a 413, unless the connection closed before the client read it
    if (response) {
      expect(response.status).toBe(413);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses guests, non-admins, other sites and form bodies', async () => {
    const png = await pngOf(10, 10);
    const before = await snapshot();
    expect((await upload(png, 'a.png', { client: null })).status).toBe(401);
    const { client: user } = await signedInClient(app, 'user');
    expect((await upload(png, 'a.png', { client: user })).status).toBe(403);
    expect((await user.get('/api/admin/media')).status).toBe(403);
    expect(
      (
        await upload(png, 'a.png', {
          headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
    expect((await upload(png, 'a.png', { contentType: 'text/plain' })).status).toBe(415);
    expect(
      (await upload(png, 'a.png', { contentType: 'multipart/form-data; boundary=x' })).status,
    ).toBe(415);
    expect(await snapshot()).toEqual(before);
  });
});

describe('deleting media', () => {
  it('deletes an item and its files; refuses while content uses it', async () => {
    const answer = await upload(await pngOf(700, 500), 'to-delete.png');
    expect(answer.status).toBe(201);
    const item = answer.body.media;
    const urls = [...item.variants.map((variant) => variant.src), item.thumbnail];

    const unused = await admin.get<MediaUsageResponse>(`/api/admin/media/${item.id}/usage`);
    expect(unused.status).toBe(200);
    expect(unused.body).toEqual({ usedBy: [] });

    referenced.add(item.variants[0]?.src ?? '');
    // the admin's confirmation asks first, and the refusal names the same things
    const usage = await admin.get<MediaUsageResponse>(`/api/admin/media/${item.id}/usage`);
    expect(usage.body).toEqual({ usedBy: [{ kind: 'test project', title: 'Tanks' }] });
    const refused = await admin.delete<{ error: { code: string; message: string } }>(
      `/api/admin/media/${item.id}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'This file is still used by the test project "Tanks": remove it there first.',
    );
    expect((await fetchMedia(item.url)).response.status).toBe(200);

    referenced.clear();
    expect((await admin.delete(`/api/admin/media/${item.id}`)).status).toBe(204);
    for (const url of urls) {
      expect((await fetchMedia(url)).response.status).toBe(404);
    }
    expect((await admin.delete(`/api/admin/media/${item.id}`)).status).toBe(404);
    expect((await admin.delete('/api/admin/media/not-an-id')).status).toBe(400);
    expect((await admin.get(`/api/admin/media/${item.id}/usage`)).status).toBe(404);
    expect((await admin.get('/api/admin/media/not-an-id/usage')).status).toBe(400);
  });

  it('removeUnusedMedia removes what no content uses and keeps the rest', async () => {
    const kept = (await upload(await pngOf(330, 200), 'kept.png')).body.media;
    const dropped = (await upload(fixture('sample.wav').subarray(0), 'dropped.wav')).body.media;
    referenced.add(kept.url);
    const removed = await app.deps.media.removeUnusedMedia([
      kept.url,
      dropped.url,
      '/assets/x.jpg',
    ]);
    expect(removed).toEqual([dropped.id]);
    expect((await fetchMedia(kept.url)).response.status).toBe(200);
    expect((await fetchMedia(dropped.url)).response.status).toBe(404);
    referenced.clear();
  });

  it('answers 404 for names that are not stored files', async () => {
    for (const url of [
      '/media/nothing.png',
      '/media/.incoming',
      `/media/${'a'.repeat(64)}.mp4`,
      '/media/',
    ]) {
      expect((await fetchMedia(url)).response.status).toBe(404);
    }
  });

  // a local folder's matter: a bucket has no links
  it.skipIf(isTestStorageS3())(
    'never follows a link placed in the folder; a file there is served',
    async () => {
      const file = `${'b'.repeat(64)}.png`;
      writeFileSync(path.join(mediaDir, file), 'stored bytes');
      symlinkSync('/etc/hostname', path.join(mediaDir, `${'a'.repeat(64)}.png`));
      symlinkSync(path.join(mediaDir, file), path.join(mediaDir, `${'c'.repeat(64)}.png`));
      for (const name of [`${'a'.repeat(64)}.png`, `${'c'.repeat(64)}.png`]) {
        const { response, bytes } = await fetchMedia(`/media/${name}`);
        expect(response.status, name).toBe(404);
        expect(bytes.toString(), name).not.toContain('stored bytes');
        expect(bytes.toString(), name).not.toContain(readFileSync('/etc/hostname', 'utf8').trim());
      }
      const served = await fetchMedia(`/media/${file}`);
      expect(served.response.status).toBe(200);
      expect(served.bytes.toString()).toBe('stored bytes');
    },
  );
});
