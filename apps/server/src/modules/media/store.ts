import { createReadStream } from 'node:fs';
import path from 'node:path';

import {
  DEFAULT_AUDIO_THUMBNAIL,
  DEFAULT_VIDEO_THUMBNAIL,
  type MediaVariant,
} from '@portfolio/types/media';

import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { contentTypeOf } from '../../lib/storage/send-object.js';
import { urlOf } from './context.js';
import { AnimationTooLargeError, CorruptImageError, processImage } from './images.js';
import { CorruptMediaError, MediaTooComplexError, probeMedia } from './probe.js';
import { type receiveMedia, refuseMedia } from './receive.js';

/** Writes a finished file from the work folder into the media storage under `name`. */
const keep = (storage: ObjectStorage, from: string, name: string) =>
  storage.put(name, createReadStream(from), { contentType: contentTypeOf(name) });

/** Processes a received file in `work` and writes its outputs into the media storage. */
export async function storeUpload(
  storage: ObjectStorage,
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
      await keep(storage, path.join(work, file), file);
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
  await keep(storage, upload, file);
  return {
    url: urlOf(file),
    width: facts.width ?? null,
    height: facts.height ?? null,
    durationSeconds: facts.durationSeconds ?? null,
    variants: [],
    thumbnail: type.kind === 'video' ? DEFAULT_VIDEO_THUMBNAIL : DEFAULT_AUDIO_THUMBNAIL,
  };
}
