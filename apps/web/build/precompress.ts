import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images, fonts and media are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|wasm|webmanifest|ico)$/;
/** Below this, the encoded file saves less than its headers cost. */
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Vite's manifest folder is read by the server, never sent
      if (entry.name !== '.vite') {
        yield* filesUnder(full);
      }
    } else {
      yield full;
    }
  }
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip -9) beside every compressible file
 * of the build, so the server sends them by Accept-Encoding without compressing per request.
 * An encoding that would not be smaller is not written. Returns the files it compressed.
 */
export async function precompressDirectory(dir: string): Promise<string[]> {
  const done: string[] = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) {
      continue;
    }
    const content = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzipAsync(content, { level: 9 }),
    ]);
    if (br.length < content.length) {
      await writeFile(`${file}.br`, br);
    }
    if (gz.length < content.length) {
      await writeFile(`${file}.gz`, gz);
    }
    done.push(file);
  }
  return done;
}

/** Vite plugin: precompresses the output folder once the build has written it. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portfolio:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await precompressDirectory(outDir);
      this.info(`precompressed ${files.length} files (brotli + gzip)`);
    },
  };
}
