import { z } from 'zod';

import type { ApiErrorCode } from './errors.js';

/*
 * Uploaded media (issue "the owner's portfolio without code"): what POST /api/admin/media answers
 * and GET /api/admin/media lists. Files are served under /media/ by their content hash, so a URL
 * never changes meaning and is cached for a year.
 */

export const STORED_MEDIA_KINDS = ['image', 'video', 'audio'] as const;
export const StoredMediaKind = z.enum(STORED_MEDIA_KINDS);
export type StoredMediaKind = z.infer<typeof StoredMediaKind>;

/** The types an upload may be, told by its bytes (the name and Content-Type only have to agree). */
export const ACCEPTED_MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
  'video/mp4',
  'video/webm',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
] as const;
export type AcceptedMediaType = (typeof ACCEPTED_MEDIA_TYPES)[number];

/** What the file picker offers (extensions and types; the server still checks the bytes). */
export const MEDIA_ACCEPT_ATTRIBUTE =
  '.jpg,.jpeg,.png,.webp,.avif,.gif,.mp4,.webm,.mp3,.ogg,.oga,.wav,' +
  ACCEPTED_MEDIA_TYPES.join(',');

/** One resized copy of an image, for `srcset`. */
export const MediaVariant = z.object({
  src: z.string().min(1),
  /** Pixels wide (the `w` descriptor). */
  width: z.number().int().positive(),
  /** Its MIME type (image/webp). */
  type: z.string().min(1),
});
export type MediaVariant = z.infer<typeof MediaVariant>;

/**
 * A stored upload. `url` is what a gallery item's `source` takes: the largest image variant, or
 * the video/audio file as uploaded. Images have `width`/`height` and `variants` (smallest first,
 * never wider than the upload); videos have `width`/`height` when the container says;
 * videos and audio have `duration` in seconds when the container says. `thumbnail` is a site
 * path: an image's small copy, or the spec's default video/audio thumbnail.
 */
export const StoredMedia = z.object({
  id: z.uuid(),
  url: z.string().min(1),
  type: StoredMediaKind,
  mime: z.string().min(1),
  /** Bytes of the upload as received. */
  bytes: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  duration: z.number().nonnegative().optional(),
  thumbnail: z.string().min(1),
  variants: z.array(MediaVariant),
  /** The file's name on the uploader's computer (for the admin's list only). */
  originalName: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type StoredMedia = z.infer<typeof StoredMedia>;

export const MediaListResponse = z.object({ media: z.array(StoredMedia) });
export type MediaListResponse = z.infer<typeof MediaListResponse>;

export const MediaUploadResponse = z.object({
  media: StoredMedia,
  /** Whether the same bytes were stored before (the earlier item is answered). */
  existing: z.boolean(),
});
export type MediaUploadResponse = z.infer<typeof MediaUploadResponse>;

/** One thing that shows an uploaded file: its kind ('gallery project') and its title. */
export const MediaUse = z.object({ kind: z.string(), title: z.string() });
export type MediaUse = z.infer<typeof MediaUse>;

/** GET /api/admin/media/:id/usage: what shows the file (the server refuses to delete it then). */
export const MediaUsageResponse = z.object({ usedBy: z.array(MediaUse) });
export type MediaUsageResponse = z.infer<typeof MediaUsageResponse>;

/**
 * The uses as words ('the gallery project "Tanks" and the devlog post "Week 3"'), for the
 * server's refusal and the admin's delete confirmation alike.
 */
export function describeMediaUses(uses: readonly MediaUse[]): string {
  const named = uses.map((use) => `the ${use.kind} "${use.title}"`);
  return named.length <= 1
    ? (named[0] ?? '')
    : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1] ?? ''}`;
}

/** Error codes an upload can answer (besides the common ones). */
export const MEDIA_ERROR_CODES = [
  'MEDIA_TOO_LARGE',
  'MEDIA_TYPE_REFUSED',
  'MEDIA_NAME_MISMATCH',
  'MEDIA_CORRUPT',
  /** An animation of too many frames × pixels, or a container of too many chunks. */
  'MEDIA_TOO_COMPLEX',
  'MEDIA_EMPTY',
  'MEDIA_IN_USE',
] as const satisfies readonly ApiErrorCode[];
export type MediaErrorCode = (typeof MEDIA_ERROR_CODES)[number];

/** The header that carries the file's name (percent-encoded, as encodeURIComponent writes it). */
export const MEDIA_FILE_NAME_HEADER = 'X-File-Name';

/** The spec's thumbnails for a video or audio item without one of its own. */
export const DEFAULT_VIDEO_THUMBNAIL = '/assets/default_video_thumbnail.jpg';
export const DEFAULT_AUDIO_THUMBNAIL = '/assets/default_audio_thumbnail.jpg';

/**
 * The gallery item for a stored upload (what the gallery editor adds): its URL as the source, an
 * image's size and widths for `srcset`, an image's small copy as its thumbnail (a video's or
 * audio's default thumbnail is left out: the viewer falls back to it by itself).
 */
export function galleryItemOf(stored: StoredMedia): {
  type: StoredMediaKind;
  source: string;
  thumbnail?: string;
  width?: number;
  height?: number;
  variants?: MediaVariant[];
} {
  const isDefaultThumbnail =
    stored.thumbnail === DEFAULT_VIDEO_THUMBNAIL || stored.thumbnail === DEFAULT_AUDIO_THUMBNAIL;
  return {
    type: stored.type,
    source: stored.url,
    ...(isDefaultThumbnail ? {} : { thumbnail: stored.thumbnail }),
    ...(stored.type === 'image' && stored.width !== undefined && stored.height !== undefined
      ? { width: stored.width, height: stored.height }
      : {}),
    ...(stored.variants.length > 0 ? { variants: stored.variants } : {}),
  };
}
