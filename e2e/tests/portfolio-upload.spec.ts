import sharp from 'sharp';

import { expect, signIn, test, uniqueName } from '../fixtures';
import { jpegWithGps, mediaFixture } from '../fixtures/media';

/*
 * The owner's whole path from the browser alone: a project made of uploaded files (a photo with
 * the camera's position, a PNG, a video and a song), moved to the top and published; a guest
 * sees it first and its viewer shows every item, the video seeking by ranges; no stored copy of
 * the photo carries the position.
 */

test('the admin builds a project from uploads, puts it first and publishes it: a guest sees every item', async ({
  page,
  admin,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Uploaded ${uniqueName('p')}`;
  await signIn(page, admin, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  let projectId: string | undefined;
  let photoUrl: string | undefined;
  try {
    await page.goto('/admin/content/gallery');
    const list = page.getByRole('list', { name: 'Gallery projects' });
    await expect(list.getByRole('listitem').first()).toBeVisible();
    const before = await list.getByRole('listitem').count();
    await page.getByRole('button', { name: 'Add project' }).click();
    const form = page.getByRole('form', { name: 'Add a project' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description', { exact: true }).fill('Everything in it was uploaded.');
    // the uploads become the items, in the order they are sent
    const uploads: Array<[string, Buffer, string]> = [
      ['holiday.jpg', await jpegWithGps(), 'image/jpeg'],
      [
        'flat.png',
        await sharp({
          create: { width: 500, height: 250, channels: 3, background: { r: 30, g: 90, b: 160 } },
        })
          .png()
          .toBuffer(),
        'image/png',
      ],
      ['clip.mp4', mediaFixture('sample.mp4'), 'video/mp4'],
      ['song.mp3', mediaFixture('sample.mp3'), 'audio/mpeg'],
    ];
    for (const [index, [name, buffer, mimeType]] of uploads.entries()) {
      await form.getByLabel('Media file').setInputFiles({ name, mimeType, buffer });
      await expect(form.getByRole('listitem', { name: `Item ${index + 1}` })).toBeVisible({
        timeout: 30_000,
      });
    }
    const photoItem = form.getByRole('listitem', { name: 'Item 1' });
    await expect(photoItem.getByLabel('Type')).toHaveValue('image');
    const photoThumbnail = await photoItem.getByLabel('Thumbnail (optional)').inputValue();
    expect(photoThumbnail).toMatch(/^\/media\//);
    await expect(form.getByRole('listitem', { name: 'Item 3' }).getByLabel('Type')).toHaveValue(
      'video',
    );
    await expect(form.getByRole('listitem', { name: 'Item 4' }).getByLabel('Type')).toHaveValue(
      'audio',
    );
    // the card shows the first image's thumbnail unless another is picked
    await expect(form.getByLabel('Card thumbnail', { exact: true })).toHaveAttribute(
      'placeholder',
      photoThumbnail,
    );
    await form.getByRole('button', { name: 'Add project' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The project was added as a draft.' }),
    ).toBeVisible();

    const rows = list.getByRole('listitem');
    await expect(rows).toHaveCount(before + 1);
    const handle = page.getByRole('button', { name: new RegExp(`^Reorder ${title}`) });
    await handle.focus();
    for (let step = 0; step < before; step++) {
      await page.keyboard.press('ArrowUp');
    }
    await expect(rows.nth(0)).toContainText(title);
    await page.getByRole('button', { name: `Publish ${title}` }).click();
    await expect(rows.nth(0)).toContainText('Published');

    const projects = (await (await page.request.get('/api/admin/gallery')).json()) as {
      projects: Array<{ id: string; title: string; media: Array<{ source: string }> }>;
    };
    const saved = projects.projects.find((project) => project.title === title);
    projectId = saved?.id;
    expect(saved?.media).toHaveLength(4);

    // no stored copy of the photo keeps the camera's position (or any EXIF)
    photoUrl = saved?.media[0]?.source ?? '';
    const stored = await page.request.get(photoUrl);
    expect(stored.status()).toBe(200);
    const storedMeta = await sharp(await stored.body()).metadata();
    expect(storedMeta.exif).toBeUndefined();

    // a guest sees it first and steps through every item
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    const ranges: number[] = [];
    guestPage.on('response', (response) => {
      if (/\/media\/[0-9a-f]{64}\.mp4$/.test(response.url())) {
        ranges.push(response.status());
      }
    });
    await guestPage.goto('/Gallery');
    const cards = guestPage.getByRole('link', { name: /View Details$/ });
    await expect(cards.nth(0)).toHaveAccessibleName(`${title} View Details`);
    await cards.nth(0).click();
    await expect(guestPage.getByRole('heading', { name: title })).toBeVisible();
    const photo = guestPage.locator(`img[alt="${title}"][srcset*="/media/"]`);
    await expect(photo).toBeVisible();
    expect(await photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(
      0,
    );
    const next = guestPage.getByRole('button', { name: 'Next Media' });
    await next.click();
    await expect(photo).toBeVisible();
    await expect(photo).toHaveAttribute('width', '500');
    await next.click();
    const video = guestPage.locator('video');
    await expect(video).toBeVisible();
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
      return element.currentTime;
    });
    expect(seeked).toBeCloseTo(2.5, 0);
    expect(ranges).toContain(206);
    await next.click();
    const song = guestPage.locator('audio');
    await expect(song).toBeAttached();
    const duration = await song.evaluate(async (element: HTMLAudioElement) => {
      if (element.readyState < 1) {
        element.load();
        await new Promise((resolve) =>
          element.addEventListener('loadedmetadata', resolve, { once: true }),
        );
      }
      return element.duration;
    });
    expect(duration).toBeGreaterThan(1);
    await guest.close();
  } finally {
    if (projectId) {
      await page.request.delete(`/api/admin/gallery/${projectId}`, { headers: { origin } });
    }
  }
  // deleting the project removed its photo (random bytes: nothing else shows it)
  expect(photoUrl).toMatch(/^\/media\//);
  expect((await page.request.get(photoUrl ?? '')).status()).toBe(404);
});
