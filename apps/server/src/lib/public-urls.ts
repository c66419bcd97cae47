import type { GalleryProject, MediaItem } from '@portfolio/types';

/*
 * Addresses handed out for files a CDN may serve (MEDIA_PUBLIC_URL, GAMES_PUBLIC_URL): the same
 * path on the CDN's address. What is stored stays the site's own path (`/media/<file>`), which
 * the media library's reference checks read; only what the public is shown is rewritten.
 */

/** Media URLs as the public gets them: `/media/…` on `base` when it is set, others as they are. */
export type MediaUrlOf = (url: string) => string;

const MEDIA_PATH = '/media/';

/** `/media/x.webp` → `<base>/media/x.webp`; anything else (and everything without a base) kept. */
export function mediaUrlOn(base: string | undefined): MediaUrlOf {
  if (!base) {
    return (url) => url;
  }
  return (url) => (url.startsWith(MEDIA_PATH) ? base + url : url);
}

function withMediaUrls(item: MediaItem, urlOf: MediaUrlOf): MediaItem {
  return {
    ...item,
    source: urlOf(item.source),
    ...(item.thumbnail ? { thumbnail: urlOf(item.thumbnail) } : {}),
    ...(item.variants
      ? { variants: item.variants.map((variant) => ({ ...variant, src: urlOf(variant.src) })) }
      : {}),
  };
}

/** A gallery project with its card and media addresses as the public gets them. */
export function galleryProjectOn(project: GalleryProject, urlOf: MediaUrlOf): GalleryProject {
  return {
    ...project,
    thumbnail: urlOf(project.thumbnail),
    media: project.media.map((item) => withMediaUrls(item, urlOf)),
  };
}
