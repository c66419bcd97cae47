import { z } from 'zod';

import { MediaVariant } from './media.js';

export const MEDIA_TYPES = ['image', 'video', 'audio'] as const;

/**
 * One item of a gallery project (spec section 3). `source` and `thumbnail` are site paths
 * (`/assets/...`) or https addresses; a video whose source is a YouTube or Vimeo address is
 * embedded in a frame. The type is a free string on purpose: an unknown type renders nothing
 * rather than breaking the page.
 *
 * An uploaded image (POST /api/admin/media) also carries its size and its resized copies:
 * `width`/`height` (the picture's own, for the aspect ratio) and `variants` (smallest first),
 * so the page offers a `srcset` and reserves the picture's space. Items without them render as
 * before.
 */
export const MediaItem = z.object({
  type: z.union([z.enum(MEDIA_TYPES), z.string().min(1)]),
  source: z.string().min(1),
  description: z.string().min(1).optional(),
  thumbnail: z.string().min(1).optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  variants: z.array(MediaVariant).optional(),
});

/**
 * An address a page may load media from: a path on this site (`/assets/…`, not `//host`) or an
 * http(s) address. Anything else (`javascript:`, `data:`) is refused where content is written.
 */
export const MediaAddress = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(2000, 'is too long (2000 characters at most)')
  .refine(
    (value) =>
      (value.startsWith('/') && !value.startsWith('//')) || /^https?:\/\/[^\s]+$/i.test(value),
    'must be a path on this site (/assets/…) or an http(s) address',
  );

/** A media item as the admin writes it: the addresses checked (extra fields pass through). */
export const MediaItemInput = MediaItem.extend({
  type: z.enum(MEDIA_TYPES, { error: 'must be image, video or audio' }),
  source: MediaAddress,
  description: z.string().trim().max(2000).optional(),
  thumbnail: MediaAddress.optional(),
});
export type MediaItem = z.infer<typeof MediaItem>;
export type KnownMediaType = (typeof MEDIA_TYPES)[number];

/** A project card of the gallery and the media its viewer shows. */
export const GalleryProject = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, dash and underscore'),
  title: z.string().min(1),
  description: z.string().min(1),
  thumbnail: z.string().min(1),
  repositoryLink: z.url({ protocol: /^https?$/ }).optional(),
  media: z.array(MediaItem).min(1, 'needs at least one media item'),
});
export type GalleryProject = z.infer<typeof GalleryProject>;
