import { open } from 'node:fs/promises';
import path from 'node:path';

import type { BuildEngine } from '@portfolio/types/game-host';

import { refuseBuild } from './zip.js';

/*
 * What an uploaded build is (issue 16): its start page, its engine, and whether it needs threads
 * (SharedArrayBuffer, so cross-origin isolation). The rules, in order:
 *
 * - start page: the .html files nearest the top of the zip; `index.html` among them, else the
 *   only one (a build zipped with its folder, `MyGame/index.html`, works too);
 * - GameMaker HTML5: an `html5game/` folder beside the start page;
 * - Unity WebGL: `Build/*.loader.js` beside the start page;
 * - Godot: the start page holds `GODOT_CONFIG` (3.3+, 4.x) or starts `new Engine` with a `.pck`
 *   beside it (3.2). Godot 4 when the config has a 4.x key (`gdextensionLibs`,
 *   `ensureCrossOriginIsolationHeaders`, `emscriptenPoolSize`, `godotPoolSize`) or the page sets
 *   `GODOT_THREADS_ENABLED`, else Godot 3;
 * - threads (Godot): `GODOT_THREADS_ENABLED = true|false` when the page says (4.3+); else a
 *   `*.worker.js` beside the start page (Emscripten's pthread worker: 3.x threads, 4.0–4.2); else,
 *   Godot 4, the config's `"ensureCrossOriginIsolationHeaders": true`; else the engine script
 *   both creating a `SharedArrayBuffer` and starting pthreads;
 * - anything else: plain HTML5.
 */

export interface BuildDetection {
  entry: string;
  engine: BuildEngine;
  needsThreads: boolean;
}

/** How much of a page or engine script is read to recognise it. */
const READ_LIMIT = 8 * 1024 * 1024;

async function readHead(file: string, limit = READ_LIMIT): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(limit, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The start page among the build's files, or the refusal. */
export function findStartPage(files: readonly string[]): string {
  const pages = files.filter((file) => /\.html?$/i.test(file));
  if (pages.length === 0) {
    throw refuseBuild(
      'NO_START_PAGE',
      'The zip has no start page (no .html file). Zip the exported folder with its index.html.',
    );
  }
  const depth = (file: string) => file.split('/').length;
  // a loop, not Math.min(...pages): GAME_ZIP_MAX_FILES has no upper bound
  const top = pages.reduce((least, page) => Math.min(least, depth(page)), Infinity);
  const candidates = pages.filter((page) => depth(page) === top).sort();
  const index = candidates.find((page) => /(^|\/)index\.html?$/i.test(page));
  if (index) {
    return index;
  }
  if (candidates.length === 1 && candidates[0]) {
    return candidates[0];
  }
  throw refuseBuild(
    'NO_START_PAGE',
    `The zip has no start page: none of ${candidates
      .slice(0, 5)
      .map((page) => JSON.stringify(page))
      .join(', ')} is index.html. Name the game's page index.html.`,
  );
}

const GODOT4_KEYS =
  /"(gdextensionLibs|ensureCrossOriginIsolationHeaders|emscriptenPoolSize|godotPoolSize)"\s*:|GODOT_THREADS_ENABLED/;

/** Detects the start page, engine and threads of the build unpacked at `root`. */
export async function detectBuild(root: string, files: readonly string[]): Promise<BuildDetection> {
  const entry = findStartPage(files);
  const base = entry.includes('/') ? `${path.posix.dirname(entry)}/` : '';
  const beside = files
    .filter((file) => file.startsWith(base))
    .map((file) => file.slice(base.length));
  const plain: BuildDetection = { entry, engine: 'html5', needsThreads: false };

  if (beside.some((file) => file.startsWith('html5game/'))) {
    return { ...plain, engine: 'gamemaker' };
  }
  if (beside.some((file) => /^Build\/[^/]+\.loader\.js$/.test(file))) {
    return { ...plain, engine: 'unity' };
  }
  const page = await readHead(path.join(root, entry));
  const hasConfig = page.includes('GODOT_CONFIG');
  const hasPck = beside.some((file) => file.endsWith('.pck'));
  if (!hasConfig && !(hasPck && /new\s+Engine\b/.test(page))) {
    return plain;
  }
  const engine: BuildEngine = GODOT4_KEYS.test(page) ? 'godot4' : 'godot3';
  return { entry, engine, needsThreads: await godotNeedsThreads(root, base, beside, page, engine) };
}

async function godotNeedsThreads(
  root: string,
  base: string,
  beside: readonly string[],
  page: string,
  engine: BuildEngine,
): Promise<boolean> {
  const declared = /GODOT_THREADS_ENABLED\s*=\s*(true|false)/.exec(page);
  if (declared) {
    return declared[1] === 'true';
  }
  if (beside.some((file) => !file.includes('/') && file.endsWith('.worker.js'))) {
    return true;
  }
  if (engine === 'godot4' && /"ensureCrossOriginIsolationHeaders"\s*:\s*true/.test(page)) {
    return true;
  }
  const executable = /"executable"\s*:\s*"([^"]+)"/.exec(page)?.[1];
  const script = executable ? `${executable}.js` : undefined;
  if (script && beside.includes(script)) {
    const code = await readHead(path.join(root, base, script));
    return /new\s+SharedArrayBuffer/.test(code) && /pthread/i.test(code);
  }
  return false;
}
