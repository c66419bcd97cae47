import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

import { forEachBounded } from '../../lib/storage/for-each-bounded.js';

/*
 * Precompressed siblings made at publish: `<file>.br` and `<file>.gz` beside each
 * compressible file of 1 KB or more, which the games origin serves by Accept-Encoding. Brotli
 * at quality 9 (11 costs several times the time for a few percent on a 40 MB .wasm), gzip at 9;
 * a sibling that is not smaller than its file is dropped. A build's own `X.br`/`X.gz` files
 * (Unity) are kept as they are and never overwritten.
 */

export const MIN_COMPRESS_BYTES = 1024;
const BROTLI_QUALITY = 9;

const COMPRESSIBLE = new Set([
  '.html',
  '.htm',
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.json',
  '.map',
  '.wasm',
  '.pck',
  '.data',
  '.mem',
  '.symbols',
  '.txt',
  '.xml',
  '.svg',
  '.csv',
  '.tsv',
  '.ttf',
  '.otf',
  '.eot',
  '.ico',
  '.bmp',
  '.tga',
  '.wav',
  '.glsl',
  '.vert',
  '.frag',
  '.shader',
  '.obj',
  '.gltf',
  '.fnt',
  '.atlas',
  '.yy',
  '.tmx',
  '.tsx',
  '.ini',
  '.md',
]);

const TEXT_EXTENSIONS = new Set([
  '.html',
  '.htm',
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
]);

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.has(path.extname(file).toLowerCase());
}

export interface CompressionResult {
  /** What browsers download: each file's brotli sibling when one was made, else the file. */
  compressedBytes: number;
  /** Siblings made (relative paths). */
  made: string[];
}

/** A sibling to try: kept only when smaller than its file. */
export interface SiblingPlan {
  /** The file's relative path; the sibling is `${path}.${kind}`. */
  path: string;
  size: number;
  kind: 'br' | 'gz';
  isText: boolean;
}

/**
 * The siblings to try for `files`: each compressible file of MIN_COMPRESS_BYTES or more, brotli
 * then gzip, except where the build carries that sibling itself. One rule for the folder
 * (compressBuild) and the streamed publish (stream-build.ts).
 */
export function planSiblings(files: ReadonlyArray<{ path: string; size: number }>): SiblingPlan[] {
  const present = new Set(files.map((file) => file.path));
  return files
    .filter((file) => file.size >= MIN_COMPRESS_BYTES && isCompressible(file.path))
    .flatMap(({ path: file, size }) => {
      const isText = TEXT_EXTENSIONS.has(path.extname(file).toLowerCase());
      return (['br', 'gz'] as const)
        .filter((kind) => !present.has(`${file}.${kind}`))
        .map((kind) => ({ path: file, size, kind, isText }));
    });
}

/** The compressor of a sibling (brotli at quality 9 tuned to its size and kind, or gzip 9). */
export function compressorOf(plan: SiblingPlan): Transform {
  return plan.kind === 'br'
    ? createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: plan.isText
            ? constants.BROTLI_MODE_TEXT
            : constants.BROTLI_MODE_GENERIC,
          [constants.BROTLI_PARAM_SIZE_HINT]: plan.size,
        },
      })
    : createGzip({ level: 9 });
}

/** What browsers download in all: each file's size, or its kept brotli sibling's. */
export function downloadBytes(
  files: ReadonlyArray<{ path: string; size: number }>,
  brotliSizes: ReadonlyMap<string, number>,
): number {
  return files.reduce((sum, file) => sum + (brotliSizes.get(file.path) ?? file.size), 0);
}

/**
 * Makes the siblings for `files` (relative to `root`, with their sizes), two at a time so the
 * machine keeps a core for the site.
 */
export async function compressBuild(
  root: string,
  files: ReadonlyArray<{ path: string; size: number }>,
): Promise<CompressionResult> {
  const made: string[] = [];
  const brotliSizes = new Map<string, number>();
  await forEachBounded(planSiblings(files), 2, async (plan) => {
    const sibling = `${plan.path}.${plan.kind}`;
    const target = path.join(root, sibling);
    await pipeline(
      createReadStream(path.join(root, plan.path)),
      compressorOf(plan),
      createWriteStream(target, { flags: 'wx' }),
    );
    const { size } = await stat(target);
    if (size >= plan.size) {
      await rm(target, { force: true });
      return;
    }
    made.push(sibling);
    if (plan.kind === 'br') {
      brotliSizes.set(plan.path, size);
    }
  });
  return { compressedBytes: downloadBytes(files, brotliSizes), made: made.sort() };
}
