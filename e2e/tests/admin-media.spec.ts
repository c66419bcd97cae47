import { randomBytes } from 'node:crypto';

import type { Page } from '@playwright/test';
import sharp from 'sharp';

import type { MediaListResponse } from '@portfolio/types/media';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  signIn,
  test,
  uniqueName,
} from '../fixtures';
import { jpegWithGps, mediaFixture } from '../fixtures/media';

async function signInAsAdmin(page: Page, admin: { username: string; password: string }) {
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

async function openMediaPage(page: Page) {
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Media' })
    .click();
  await expect(page).toHaveURL(/\/admin\/media$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Media' })).toBeVisible();
}

/** Chooses a file through the picker, as the file button does. */
async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await page.getByLabel('Media file').setInputFiles({ name, mimeType, buffer });
}

/** Drops a file on the drop zone, as dragging it from a file manager does. */
async function dropFile(page: Page, name: string, buffer: Buffer, mimeType: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ fileName, base64, type }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], fileName, { type }));
      return transfer;
    },
    { fileName: name, base64: buffer.toString('base64'), type: mimeType },
  );
  const zone = page.getByTestId('media-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** Waits for the upload's end: the progress bar gone and the status line saying so. */
async function expectUploaded(page: Page, name: string) {
  await expect(page.getByRole('status').filter({ hasText: name })).toHaveText(
    new RegExp(`^${name.replace('.', '\\.')} (uploaded|was already uploaded)\\.$`),
    { timeout: 20_000 },
  );
  await expect(page.locator('progress')).toHaveCount(0);
}

function card(page: Page, name: string) {
  return page.getByRole('list', { name: 'Uploaded Media' }).getByRole('listitem', { name });
}

async function mediaList(page: Page) {
  const response = await page.request.get('/api/admin/media');
  expect(response.status()).toBe(200);
  return ((await response.json()) as MediaListResponse).media;
}

test('an admin uploads a photo, a PNG, a video and a song; the photo loses its GPS and the video seeks', async ({
  page,
  admin,
}) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, admin);
  await openMediaPage(page);
  await expectNoSeriousA11yViolations(page);

  // a photo through the file picker: stored without its camera data
  const photoName = `${uniqueName('photo')}.jpg`;
  await chooseFile(page, photoName, await jpegWithGps(), 'image/jpeg');
  await expectUploaded(page, photoName);
  const photoCard = card(page, photoName);
  await expect(photoCard).toContainText('900 × 600');
  await expect(photoCard.getByRole('img', { name: photoName })).toBeVisible();
  const photo = (await mediaList(page)).find((item) => item.originalName === photoName);
  expect(photo?.variants.map((variant) => variant.width)).toEqual([320, 640, 900]);
  for (const url of [photo?.url ?? '', photo?.thumbnail ?? '']) {
    const stored = await page.request.get(url);
    expect(stored.status()).toBe(200);
    expect(stored.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const metadata = await sharp(await stored.body()).metadata();
    expect(metadata.exif).toBeUndefined();
    expect((await stored.body()).includes('TestCam')).toBe(false);
  }

  // a PNG dropped on the drop zone
  const pngName = `${uniqueName('drawing')}.png`;
  const png = await sharp({
    create: {
      width: 500,
      height: 250,
      channels: 3,
      background: `#${randomBytes(3).toString('hex')}`,
    },
  })
    .png()
    .toBuffer();
  await dropFile(page, pngName, png, 'image/png');
  await expectUploaded(page, pngName);
  await expect(card(page, pngName)).toContainText('500 × 250');

  // a video and a song: stored as uploaded, with their lengths; the video element reads the
  // video by ranges
  const ranges: number[] = [];
  page.on('response', (response) => {
    if (/\/media\/[0-9a-f]{64}\.mp4$/.test(response.url())) {
      ranges.push(response.status());
    }
  });
  await chooseFile(page, 'sample-clip.mp4', mediaFixture('sample.mp4'), 'video/mp4');
  await expectUploaded(page, 'sample-clip.mp4');
  await chooseFile(page, 'sample-song.mp3', mediaFixture('sample.mp3'), 'audio/mpeg');
  await expectUploaded(page, 'sample-song.mp3');
  const videoCard = card(page, 'sample-clip.mp4');
  await expect(videoCard).toContainText('320 × 180, 0:04');
  await expect(card(page, 'sample-song.mp3')).toContainText('0:03');

  // the video plays from ranges: seeking lands where asked
  const video = videoCard.locator('video');
  await video.scrollIntoViewIfNeeded();
  const seeked = await video.evaluate(async (element: HTMLVideoElement) => {
    if (element.readyState < 1) {
      element.load();
      await new Promise((resolve, reject) => {
        element.addEventListener('loadedmetadata', resolve, { once: true });
        element.addEventListener('error', () => reject(new Error('the video did not load')), {
          once: true,
        });
      });
    }
    const done = new Promise((resolve) =>
      element.addEventListener('seeked', resolve, { once: true }),
    );
    element.currentTime = 2.5;
    await done;
    return { currentTime: element.currentTime, duration: element.duration };
  });
  expect(seeked.duration).toBeCloseTo(4, 0);
  expect(seeked.currentTime).toBeCloseTo(2.5, 0);
  expect(ranges).toContain(206);

  // the song's length as the browser reads it
  const songDuration = await card(page, 'sample-song.mp3')
    .locator('audio')
    .evaluate(async (element: HTMLAudioElement) => {
      element.preload = 'metadata';
      element.load();
      await new Promise((resolve) =>
        element.addEventListener('loadedmetadata', resolve, { once: true }),
      );
      return element.duration;
    });
  expect(songDuration).toBeGreaterThan(2.9);
  expect(songDuration).toBeLessThan(3.2);

  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);

  // deleting asks first, then the item and its files are gone
  await card(page, pngName)
    .getByRole('button', { name: `Delete ${pngName}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete Media' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, pngName)).toHaveCount(0);
  const deleted = (await mediaList(page)).find((item) => item.originalName === pngName);
  expect(deleted).toBeUndefined();
});

test('refused uploads say why and store nothing', async ({ page, admin }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page, admin);
  await openMediaPage(page);
  const before = (await mediaList(page)).map((item) => item.id).sort();
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });

  await chooseFile(
    page,
    'logo.svg',
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    'image/svg+xml',
  );
  await expect(alert).toHaveText(/SVG images are not accepted/);

  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  await chooseFile(page, 'movie.mp4', png, 'video/mp4');
  await expect(alert).toHaveText(/named \.mp4 but its bytes are a PNG image/);

  // over MEDIA_MAX_IMAGE_BYTES (3 MB on the e2e server)
  const big = await sharp(randomBytes(1100 * 1100 * 3), {
    raw: { width: 1100, height: 1100, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  await chooseFile(page, 'huge.png', big, 'image/png');
  await expect(alert).toHaveText(/larger than the limit of .* for image uploads/);

  const whole = await jpegWithGps();
  await chooseFile(page, 'cut.jpg', whole.subarray(0, Math.floor(whole.length / 2)), 'image/jpeg');
  await expect(alert).toHaveText(/truncated or damaged/);

  expect((await mediaList(page)).map((item) => item.id).sort()).toEqual(before);
  await expectNoSeriousA11yViolations(page);
});

test('the upload works from the keyboard', async ({ page, admin }) => {
  await signInAsAdmin(page, admin);
  await openMediaPage(page);
  const button = page.getByRole('button', { name: 'Choose a file' });
  await button.focus();
  await expect(button).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  const name = `${uniqueName('keys')}.png`;
  const png = await sharp({
    create: {
      width: 64,
      height: 64,
      channels: 3,
      background: `#${randomBytes(3).toString('hex')}`,
    },
  })
    .png()
    .toBuffer();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: png });
  await expectUploaded(page, name);
  await expect(card(page, name)).toContainText('64 × 64');
  // Tab reaches the new item's buttons
  await card(page, name).getByRole('button', { name: 'Copy URL' }).focus();
  await page.keyboard.press('Tab');
  await expect(card(page, name).getByRole('button', { name: `Delete ${name}` })).toBeFocused();
});

test('a slow upload shows its progress until the server has it', async ({ page, admin }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page, admin);
  await openMediaPage(page);
  // a slow line: about 300 KB a second out
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 5_000_000,
    uploadThroughput: 300_000,
  });
  const name = `${uniqueName('slow')}.png`;
  const png = await sharp(randomBytes(600 * 600 * 3), {
    raw: { width: 600, height: 600, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  await chooseFile(page, name, png, 'image/png');
  const progress = page.getByRole('progressbar', { name: new RegExp(`^Uploading ${name}`) });
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('value')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expectUploaded(page, name);
  await expect(card(page, name)).toContainText('600 × 600');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
});
