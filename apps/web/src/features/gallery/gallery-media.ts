import type { GalleryProject, MediaItem } from '@portfolio/types';

export const DEFAULT_VIDEO_THUMBNAIL = '/assets/default_video_thumbnail.jpg';
export const DEFAULT_AUDIO_THUMBNAIL = '/assets/default_audio_thumbnail.jpg';

/** The index `steps` away from `index` in a list of `count`, wrapping at both ends. */
export function wrapIndex(index: number, steps: number, count: number): number {
  if (count <= 0) {
    return 0;
  }
  return (((index + steps) % count) + count) % count;
}

/**
 * The picture shown for an item in the thumbnail strip (spec section 2): its own thumbnail, an
 * image's own source (its smallest resized copy when it has some), else the default for its
 * type; undefined for an unknown type.
 */
export function thumbnailFor(item: MediaItem): string | undefined {
  if (item.thumbnail) {
    return item.thumbnail;
  }
  switch (item.type) {
    case 'image':
      return item.variants?.[0]?.src ?? item.source;
    case 'video':
      return DEFAULT_VIDEO_THUMBNAIL;
    case 'audio':
      return DEFAULT_AUDIO_THUMBNAIL;
    default:
      return undefined;
  }
}

/** An image's `srcset` from its resized copies (`/media/…-320.webp 320w, …`), if it has any. */
export function srcSetFor(item: MediaItem): string | undefined {
  const variants = item.variants ?? [];
  if (variants.length === 0) {
    return undefined;
  }
  return variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ');
}

const SOURCE_TYPES: Record<string, string> = {
  webm: 'video/webm',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
};

/**
 * The `type` of a video's or audio's `<source>`: the spec's mp4 and mpeg, or WebM, Ogg and WAV
 * for uploads of those (told by the file's extension).
 */
export function sourceTypeFor(item: MediaItem): string {
  const ext = /\.([a-z0-9]+)$/i.exec(item.source.split(/[?#]/)[0] ?? '')?.[1]?.toLowerCase();
  return (ext && SOURCE_TYPES[ext]) ?? (item.type === 'audio' ? 'audio/mpeg' : 'video/mp4');
}

/** The description under the current item: the item's own, else the project's. */
export function descriptionFor(project: GalleryProject, item: MediaItem): string {
  return item.description ?? project.description;
}

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;
const VIMEO_ID = /^\d{1,12}$/;

/**
 * The frame address for a video on YouTube or Vimeo (watch, short and embed links), or undefined
 * when the source is not on one of them (then it plays in a video element). Embeds use the
 * privacy-enhanced YouTube host; both hosts are allowed by the site's frame-src.
 */
export function videoEmbedUrl(source: string): string | undefined {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter((segment) => segment.length > 0);
  if (YOUTUBE_HOSTS.has(host)) {
    const id =
      host === 'youtu.be'
        ? segments[0]
        : segments[0] === 'embed' || segments[0] === 'shorts' || segments[0] === 'live'
          ? segments[1]
          : url.searchParams.get('v');
    return id && YOUTUBE_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : undefined;
  }
  if (VIMEO_HOSTS.has(host)) {
    const id = host === 'player.vimeo.com' ? segments[1] : segments.find((s) => VIMEO_ID.test(s));
    return id && VIMEO_ID.test(id) ? `https://player.vimeo.com/video/${id}` : undefined;
  }
  return undefined;
}

/** What the viewer's query string says: the open project and the 0-based item. */
export interface GallerySelection {
  project: GalleryProject;
  index: number;
}

export const PROJECT_PARAM = 'project';
export const MEDIA_PARAM = 'media';

/**
 * The selection a URL's query names (`?project=item2&media=3`, media counted from 1 like the
 * thumbnails), or undefined for the grid. An unknown project shows the grid; a missing or
 * out-of-range media number shows the first item.
 */
export function readSelection(
  params: URLSearchParams,
  projects: readonly GalleryProject[],
): GallerySelection | undefined {
  const id = params.get(PROJECT_PARAM);
  const project = projects.find((candidate) => candidate.id === id);
  if (!project) {
    return undefined;
  }
  const raw = params.get(MEDIA_PARAM);
  const number = raw !== null && /^\d+$/.test(raw) ? Number(raw) : 1;
  const index = number >= 1 && number <= project.media.length ? number - 1 : 0;
  return { project, index };
}

/** The query string for a selection (the grid when undefined). */
export function selectionParams(selection: { projectId: string; index: number } | undefined) {
  const params = new URLSearchParams();
  if (selection) {
    params.set(PROJECT_PARAM, selection.projectId);
    params.set(MEDIA_PARAM, String(selection.index + 1));
  }
  return params;
}
