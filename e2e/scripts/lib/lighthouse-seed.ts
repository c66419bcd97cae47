// What the Lighthouse pages need on a fresh site, made through the API as an owner would: a
// gallery project of uploaded photos shown first on /Gallery, a signed-in player for /profile and
// a signed-in admin for the admin pages. A fresh site already has the built-in games (published:
// /games?play=RocketGame) and the welcome post of the devlog.
import sharp from 'sharp';

import { type MediaUploadResponse, galleryItemOf } from '@portfolio/types/media';

import { type BrowserCookie, SiteClient } from './site';

export interface SeededSite {
  /** Session cookies of a signed-in player (for /profile). */
  player: BrowserCookie[];
  /** Session cookies of the signed-in admin (for /admin/…). */
  admin: BrowserCookie[];
}

/** A 1600×900 picture with gradients and shapes: a screenshot-like upload (PNG). */
function picture(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,25%)"/><stop offset="1" stop-color="hsl(${hue + 60},80%,60%)"/>
    </linearGradient></defs>
    <rect width="1600" height="900" fill="url(#g)"/>
    ${Array.from({ length: 24 }, (_, i) => `<circle cx="${(i * 211) % 1600}" cy="${(i * 137) % 900}" r="${30 + ((i * 53) % 120)}" fill="hsla(${hue + i * 15},90%,70%,0.45)"/>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function seedGallery(admin: SiteClient) {
  const uploads = [];
  for (const [index, hue] of [200, 20, 120].entries()) {
    const answer = (await admin.request('POST', '/api/admin/media', await picture(hue), {
      'content-type': 'image/png',
      'x-file-name': `screenshot-${index + 1}.png`,
    })) as MediaUploadResponse;
    uploads.push(answer.media);
  }
  const [first] = uploads;
  if (!first) {
    throw new Error('no media was uploaded');
  }
  const id = 'lighthouse-uploads';
  await admin.request('POST', '/api/admin/gallery', {
    id,
    title: 'Uploaded screenshots',
    description: 'Screenshots uploaded through the media page.',
    thumbnail: first.thumbnail,
    media: uploads.map((media, index) => ({
      ...galleryItemOf(media),
      description: `Screenshot ${index + 1}`,
    })),
    published: true,
  });
  const { projects } = (await admin.request('GET', '/api/admin/gallery')) as {
    projects: { id: string }[];
  };
  await admin.request('PUT', '/api/admin/gallery/order', {
    ids: [id, ...projects.map((project) => project.id).filter((other) => other !== id)],
  });
}

/** Seeds the site at `origin` and signs in the accounts the signed-in pages are measured with. */
export async function seedLighthouseSite(origin: string): Promise<SeededSite> {
  const admin = await SiteClient.signedIn(origin);
  await seedGallery(admin);
  const player = await SiteClient.registered(origin, 'lighthouse_player');
  return { player: player.cookies, admin: admin.cookies };
}
