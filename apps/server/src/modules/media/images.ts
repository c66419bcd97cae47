import path from 'node:path';

import sharp from 'sharp';

import type { MediaVariant } from '@portfolio/types/media';

/*
 * The image pipeline: an upload is decoded once per output, turned upright (EXIF orientation),
 * and written as WebP at the responsive widths and as a thumbnail. Nothing of the upload's
 * metadata (EXIF with camera GPS, XMP, IPTC, comments) is copied: sharp writes none unless told.
 * The upload itself is not kept, so no file under MEDIA_DIR carries the original's metadata.
 *
 * WebP only, not AVIF: measured here on 4000×3000 JPEGs, the five widths took 1.6 s in WebP
 * and 2.6 s in AVIF (effort 2) for a photo-like picture, 1.9 s and 4.8 s for pure noise, on a
 * 2-core machine that also serves the site; every browser the site supports shows WebP. The whole
 * pipeline (five widths and the thumbnail) took ~1.5 s for the photo-like one.
 */

/** The widths written (never wider than the upload; the upload's own width when smaller than 1920). */
export const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920] as const;
const MAX_VARIANT_WIDTH = 1920;
export const THUMBNAIL_WIDTH = 480;

// one libvips thread per image: the machine's cores also serve requests
sharp.concurrency(1);

export class CorruptImageError extends Error {}

/**
 * The most pixels an animation may have in all its frames (frames × width × height). Each frame
 * is decoded onto the whole canvas, so a 2.9 KB GIF of 100 tiny frames on a 1600×1600 canvas is
 * 256 million pixels: measured here, one decode of it took 3.8 s and the whole pipeline (six
 * outputs) 11 s; a 100-million-pixel animation decodes in ~1.3 s. Real animations (a 640×360
 * loop of 300 frames: 69 million) fit.
 */
export const MAX_ANIMATION_PIXELS = 100_000_000;

export class AnimationTooLargeError extends Error {}

export interface ProcessedImage {
  width: number;
  height: number;
  /** Files written into the output folder, by name. */
  files: string[];
  /** Smallest first; `src` is the file's name (the caller adds the URL prefix). */
  variants: MediaVariant[];
  thumbnail: string;
}

const millions = (pixels: number) => Math.round(pixels / 1_000_000).toLocaleString('en');

/** The widths to write for an image `width` pixels wide. */
export function variantWidthsFor(width: number): number[] {
  const largest = Math.min(width, MAX_VARIANT_WIDTH);
  const widths: number[] = VARIANT_WIDTHS.filter((step) => step < largest);
  widths.push(largest);
  return widths;
}

/**
 * Writes an image's WebP variants and thumbnail as `<name>-<width>.webp` and `<name>-thumb.webp`
 * into `outDir`. Throws CorruptImageError when the image cannot be decoded whole (truncated,
 * corrupt).
 */
export async function processImage(
  input: string,
  mime: string,
  outDir: string,
  name: string,
): Promise<ProcessedImage> {
  const isAnimated = mime === 'image/gif' || mime === 'image/webp';
  // 'truncated' refuses images whose data stops early, not ones with a harmless warning
  const open = () => sharp(input, { failOn: 'truncated', animated: isAnimated }).rotate();
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(input, { animated: isAnimated }).metadata();
    width = metadata.autoOrient.width;
    // an animation's frames are stacked: one frame's height
    height =
      isAnimated && metadata.pageHeight !== undefined
        ? metadata.pageHeight
        : metadata.autoOrient.height;
    if (!width || !height) {
      throw new CorruptImageError('The image has no size.');
    }
    // read from the headers (sharp counts the frames without decoding them): refused before
    // any frame is decoded
    const frames = isAnimated ? (metadata.pages ?? 1) : 1;
    if (frames > 1 && frames * width * height > MAX_ANIMATION_PIXELS) {
      throw new AnimationTooLargeError(
        `The animation is too large to convert: ${frames} frames of ${width}×${height} pixels are ${millions(frames * width * height)} million pixels, and the limit is ${millions(MAX_ANIMATION_PIXELS)} million (frames × width × height). Make it smaller or shorter and upload it again.`,
      );
    }
    const widths = variantWidthsFor(width);
    const files: string[] = [];
    const variants: MediaVariant[] = [];
    for (const variantWidth of widths) {
      const file = `${name}-${variantWidth}.webp`;
      await open()
        .resize({ width: variantWidth, withoutEnlargement: true })
        .webp({ quality: 80, effort: 4 })
        .toFile(path.join(outDir, file));
      files.push(file);
      variants.push({ src: file, width: variantWidth, type: 'image/webp' });
    }
    const thumbnail = `${name}-thumb.webp`;
    await open()
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .webp({ quality: 75, effort: 4 })
      .toFile(path.join(outDir, thumbnail));
    files.push(thumbnail);
    return { width, height, files, variants, thumbnail };
  } catch (error) {
    if (error instanceof CorruptImageError || error instanceof AnimationTooLargeError) {
      throw error;
    }
    // libvips says why (premature end of JPEG file, IDAT stream error…): the client gets it as details
    throw new CorruptImageError(error instanceof Error ? error.message : String(error));
  }
}
