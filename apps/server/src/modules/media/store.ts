import { rename } from 'node:fs/promises';
import path from 'node:path';

import {
  DEFAULT_AUDIO_THUMBNAIL,
  DEFAULT_VIDEO_THUMBNAIL,
  type MediaVariant,
} from '@portfolio/types/media';

import { urlOf } from './context.js';
import { AnimationTooLargeError, CorruptImageError, processImage } from './images.js';
import { CorruptMediaError, MediaTooComplexError, probeMedia } from './probe.js';
import { type receiveMedia, refuseMedia } from './receive.js';

/** Processes a received file in `work` and moves its outputs into `dir` (MEDIA_DIR). */
export async function storeUpload(
  dir: string,
  work: string,
  upload: string,
  received: Awaited<ReturnType<typeof receiveMedia>>,
) {
  const { type, sha256 } = received;
  if (type.kind === 'image') {
    const image = await processImage(upload, type.mime, work, sha256).catch((error: unknown) => {
      if (error instanceof CorruptImageError) {
        throw refuseMedia(
          'MEDIA_CORRUPT',
          `The image could not be read whole: it is truncated or damaged. Export it again and upload the new file.`,
          error.message,
        );
      }
      if (error instanceof AnimationTooLargeError) {
        throw refuseMedia('MEDIA_TOO_COMPLEX', error.message);
      }
      throw error;
    });
    for (const file of image.files) {
      await rename(path.join(work, file), path.join(dir, file));
    }
    const variants: MediaVariant[] = image.variants.map((variant) => ({
      ...variant,
      src: urlOf(variant.src),
    }));
    return {
      url: variants[variants.length - 1]?.src ?? urlOf(image.thumbnail),
      width: image.width,
      height: image.height,
      durationSeconds: null,
      variants,
      thumbnail: urlOf(image.thumbnail),
    };
  }
  const facts = await probeMedia(upload, type.mime, received.bytes).catch((error: unknown) => {
    if (error instanceof CorruptMediaError) {
      throw refuseMedia('MEDIA_CORRUPT', error.message);
    }
    if (error instanceof MediaTooComplexError) {
      throw refuseMedia('MEDIA_TOO_COMPLEX', error.message);
    }
    throw error;
  });
  const file = `${sha256}.${type.ext}`;
  await rename(upload, path.join(dir, file));
  return {
    url: urlOf(file),
    width: facts.width ?? null,
    height: facts.height ?? null,
    durationSeconds: facts.durationSeconds ?? null,
    variants: [],
    thumbnail: type.kind === 'video' ? DEFAULT_VIDEO_THUMBNAIL : DEFAULT_AUDIO_THUMBNAIL,
  };
}
