import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

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

async function compressOne(
  source: string,
  target: string,
  size: number,
  kind: 'br' | 'gz',
  isText: boolean,
): Promise<number> {
  const compressor =
    kind === 'br'
      ? createBrotliCompress({
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: isText
              ? constants.BROTLI_MODE_TEXT
              : constants.BROTLI_MODE_GENERIC,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        })
      : createGzip({ level: 9 });
  await pipeline(createReadStream(source), compressor, createWriteStream(target, { flags: 'wx' }));
  return (await stat(target)).size;
}

/**
 * Makes the siblings for `files` (relative to `root`, with their sizes), two at a time so the
 * machine keeps a core for the site.
 */
export async function compressBuild(
  root: string,
  files: ReadonlyArray<{ path: string; size: number }>,
): Promise<CompressionResult> {
  const present = new Set(files.map((file) => file.path));
  const made: string[] = [];
  const downloadSize = new Map(files.map((file) => [file.path, file.size]));
  const work = files.filter((file) => file.size >= MIN_COMPRESS_BYTES && isCompressible(file.path));
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const file = work[next++];
      if (!file) {
        return;
      }
      const source = path.join(root, file.path);
      const isText = TEXT_EXTENSIONS.has(path.extname(file.path).toLowerCase());
      for (const kind of ['br', 'gz'] as const) {
        const sibling = `${file.path}.${kind}`;
        if (present.has(sibling)) {
          continue;
        }
        const target = path.join(root, sibling);
        const size = await compressOne(source, target, file.size, kind, isText);
        if (size >= file.size) {
          await rm(target, { force: true });
          continue;
        }
        made.push(sibling);
        if (kind === 'br') {
          downloadSize.set(file.path, size);
        }
      }
    }
  };
  await Promise.all([worker(), worker()]);
  let compressedBytes = 0;
  for (const size of downloadSize.values()) {
    compressedBytes += size;
  }
  return { compressedBytes, made: made.sort() };
}
