import type { Locator, Page } from '@playwright/test';

import { expect, expectFitsPhoneWidth, expectNoSeriousA11yViolations, test } from '../fixtures';

const DEFAULT_VIDEO_THUMBNAIL = '/assets/default_video_thumbnail.jpg';

function viewer(page: Page): Locator {
  return page.getByRole('region', { name: /Visuals and VFX|Prototype Online|ProjectX/ });
}

function thumbnail(page: Page, n: number): Locator {
  return page.getByRole('button', { name: `Thumbnail ${n}`, exact: true });
}

async function expectCurrent(page: Page, n: number, count: number): Promise<void> {
  await expect(thumbnail(page, n)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('[aria-current="true"]')).toHaveCount(1);
  await expect(page.getByText(`${n} / ${count}`, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]media=${n}(&|$)`));
}

/** Whether an image element has loaded a real picture. */
async function isLoaded(image: Locator): Promise<boolean> {
  return image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return img.complete && img.naturalWidth > 0;
  });
}

test('the grid shows the three projects with sized thumbnails, lazy after the first, and fits a phone', async ({
  page,
}) => {
  await page.goto('/Gallery');
  await expect(page.getByRole('heading', { level: 1, name: 'My Gallery' })).toBeVisible();
  const cards = page.getByRole('link', { name: /View Details$/ });
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toHaveAccessibleName('Visuals and VFX View Details');
  await expect(cards.nth(1)).toHaveAccessibleName('Prototype Online View Details');
  await expect(cards.nth(2)).toHaveAccessibleName('ProjectX View Details');
  await expect(cards.nth(0)).toContainText('Real-time effects');

  const pictures = page.locator('.gallery-card img');
  await expect(pictures).toHaveCount(3);
  // each thumbnail is named by its project's title, as the viewer's pictures are
  await expect(pictures.nth(0)).toHaveAttribute('alt', 'Visuals and VFX');
  await expect(pictures.nth(1)).toHaveAttribute('alt', 'Prototype Online');
  await expect(pictures.nth(2)).toHaveAttribute('alt', 'ProjectX');
  // the first is the largest paint on a phone: it loads at once, first; the others as they near
  await expect(pictures.nth(0)).not.toHaveAttribute('loading', 'lazy');
  await expect(pictures.nth(0)).toHaveAttribute('fetchpriority', 'high');
  for (const [index, picture] of (await pictures.all()).entries()) {
    if (index > 0) {
      await expect(picture).toHaveAttribute('loading', 'lazy');
    }
    await expect(picture).toHaveAttribute('width', '320');
    await expect(picture).toHaveAttribute('height', '180');
    await expect.poll(() => isLoaded(picture)).toBe(true);
  }
  // the overlay appears over a card the pointer is on
  await cards.nth(1).hover();
  await expect(cards.nth(1).getByText('View Details')).toBeVisible();

  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);
});

test('the viewer wraps both ways, follows the thumbnails and falls back per item', async ({
  page,
}) => {
  await page.goto('/Gallery');
  await page.getByRole('link', { name: 'Visuals and VFX View Details' }).click();
  await expect(page).toHaveURL(/\/Gallery\?project=item1&media=1$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Visuals and VFX' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Close Viewer' })).toBeVisible();
  // item1 has no repositoryLink
  await expect(page.getByRole('link', { name: 'View Repository' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /View Details$/ })).toHaveCount(0);

  // item 1 is a local video: a player with controls, its mp4 and the fallback text
  const video = page.locator('.gallery-viewer video');
  await expect(video).toHaveAttribute('controls', '');
  await expect(video.locator('source')).toHaveAttribute('src', '/assets/gallery/vfx-reel.mp4');
  await expect(video.locator('source')).toHaveAttribute('type', 'video/mp4');
  await expect(video).toContainText('Your browser does not support the video tag.');
  await expect(page.getByText('Effects reel: a fractal zoom')).toBeVisible();
  await expectCurrent(page, 1, 6);

  // six thumbnails: the video's default one, then the images' own sources
  for (let n = 1; n <= 6; n += 1) {
    await expect(thumbnail(page, n)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /^Thumbnail \d+$/ })).toHaveCount(6);
  const firstThumb = thumbnail(page, 1).locator('img');
  await expect(firstThumb).toHaveAttribute('src', DEFAULT_VIDEO_THUMBNAIL);
  await expect.poll(() => isLoaded(firstThumb)).toBe(true);
  await expect(thumbnail(page, 2).locator('img')).toHaveAttribute(
    'src',
    '/assets/gallery/vfx-plasma.webp',
  );

  // Previous from the first wraps to the last
  await page.getByRole('button', { name: 'Previous Media' }).click();
  await expectCurrent(page, 6, 6);
  const picture = page.locator('.gallery-viewer__stage img');
  await expect(picture).toHaveAttribute('alt', 'Visuals and VFX');
  await expect(picture).toHaveAttribute('src', '/assets/gallery/vfx-frost.webp');
  await expect.poll(() => isLoaded(picture)).toBe(true);
  await expect(page.getByText('Frost crystals')).toBeVisible();
  // Next from the last wraps to the first
  await page.getByRole('button', { name: 'Next Media' }).click();
  await expectCurrent(page, 1, 6);
  await expect(video).toBeVisible();

  // a thumbnail selects its item; an item without a description shows the project's
  await thumbnail(page, 5).click();
  await expectCurrent(page, 5, 6);
  await expect(picture).toHaveAttribute('src', '/assets/gallery/vfx-embers.webp');
  await expect(page.locator('.gallery-viewer__description')).toHaveText(
    'Real-time effects and shader studies: particles, distortion and stylised lighting built for games.',
  );
  await expect(thumbnail(page, 5)).toHaveClass(/gallery-thumbnail--active/);
  await expect(thumbnail(page, 1)).not.toHaveClass(/gallery-thumbnail--active/);

  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);

  await page.getByRole('button', { name: 'Close Viewer' }).click();
  await expect(page).toHaveURL(/\/Gallery$/);
  await expect(page.getByRole('link', { name: /View Details$/ })).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Close Viewer' })).toHaveCount(0);
});

test('the viewer works by keyboard: Enter opens, arrows move with wrap-around, Escape closes', async ({
  page,
}) => {
  await page.goto('/Gallery');
  const card = page.getByRole('link', { name: 'Prototype Online View Details' });
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/project=item2&media=1$/);
  await expectCurrent(page, 1, 3);

  await page.keyboard.press('ArrowLeft');
  await expectCurrent(page, 3, 3);
  await expect(page.locator('.gallery-viewer__stage img')).toHaveAttribute(
    'src',
    '/assets/gallery/proto-arena.webp',
  );
  await page.keyboard.press('ArrowRight');
  await expectCurrent(page, 1, 3);
  await page.keyboard.press('ArrowRight');
  await expectCurrent(page, 2, 3);

  // the strip is reachable with Tab and a thumbnail is chosen with Enter
  await thumbnail(page, 3).focus();
  await page.keyboard.press('Enter');
  await expectCurrent(page, 3, 3);

  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/Gallery$/);
  // focus returns to the card that opened the viewer
  await expect(card).toBeFocused();
});

test('links name a project and item; Back leaves the viewer; embeds and repository link', async ({
  page,
}) => {
  // a shared link opens the viewer on that item
  await page.goto('/Gallery?project=item3&media=2');
  await expect(page.getByRole('heading', { level: 2, name: 'ProjectX' })).toBeVisible();
  await expectCurrent(page, 2, 7);
  // a video on a video site plays in a frame (the privacy-enhanced YouTube host)
  const frame = page.locator('.gallery-viewer__stage iframe');
  await expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
  await expect(frame).toHaveAttribute('title', 'ProjectX – video 2');
  await expect(page.locator('.gallery-viewer__stage video')).toHaveCount(0);
  await thumbnail(page, 3).click();
  await expect(frame).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871');
  await expect(thumbnail(page, 3).locator('img')).toHaveAttribute(
    'src',
    '/assets/gallery/projectx-trailer-3.webp',
  );
  // the seventh is the local one, with the default video thumbnail
  await thumbnail(page, 7).click();
  await expect(page.locator('.gallery-viewer__stage video source')).toHaveAttribute(
    'src',
    '/assets/gallery/projectx-devlog.mp4',
  );
  await expect(thumbnail(page, 7).locator('img')).toHaveAttribute('src', DEFAULT_VIDEO_THUMBNAIL);

  const repository = page.getByRole('link', { name: 'View Repository' });
  await expect(repository).toHaveAttribute('href', 'https://github.com/gamedev-portfolio/projectx');
  await expect(repository).toHaveAttribute('target', '_blank');
  await expect(repository).toHaveAttribute('rel', /\bnoopener\b/);

  // Back from a viewer opened from the grid returns to the grid; Forward reopens it
  await page.goto('/Gallery');
  await page.getByRole('link', { name: 'Prototype Online View Details' }).click();
  await page.getByRole('button', { name: 'Next Media' }).click();
  await expectCurrent(page, 2, 3);
  await page.goBack();
  await expect(page).toHaveURL(/\/Gallery$/);
  await expect(page.getByRole('link', { name: /View Details$/ })).toHaveCount(3);
  await page.goForward();
  await expectCurrent(page, 2, 3);
  await expect(viewer(page)).toBeVisible();

  // the lower-case link reaches the page; unknown projects and items fall back
  await page.goto('/gallery?project=nope&media=1');
  await expect(page.getByRole('link', { name: /View Details$/ })).toHaveCount(3);
  await expect(page).toHaveURL(/\/gallery$/);
  await page.goto('/Gallery?project=item2&media=99');
  await expectCurrent(page, 1, 3);
});

test('every gallery file and both default thumbnails are served from /assets', async ({
  request,
}) => {
  const files = [
    ['/assets/default_video_thumbnail.jpg', 'image/jpeg'],
    ['/assets/default_audio_thumbnail.jpg', 'image/jpeg'],
    ['/assets/gallery/vfx-reel.mp4', 'video/mp4'],
    ['/assets/gallery/prototype-playtest.mp4', 'video/mp4'],
    ['/assets/gallery/projectx-devlog.mp4', 'video/mp4'],
    ['/assets/gallery/proto-lobby.webp', 'image/webp'],
  ] as const;
  for (const [path, type] of files) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type'], path).toContain(type);
  }
});
