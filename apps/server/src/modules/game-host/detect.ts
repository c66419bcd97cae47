import { open, rm } from 'node:fs/promises';
import path from 'node:path';

import type { BuildEngine } from '@portfolio/types/game-host';

import { refuseBuild } from './zip.js';

/*
 * What an uploaded build is: its start page, its engine, whether it needs
 * threads (SharedArrayBuffer, so cross-origin isolation), and which files it carries that a
 * browser never asks for. The rules, in order:
 *
 * - left out: executables, libraries and debug files of desktop exports (`.exe`, `.dll`,
 *   `.pdb`, `.so`, `.dylib`, a macOS `.app/` bundle) and what file managers leave behind
 *   (`.DS_Store`, `._*` resource forks, `Thumbs.db`, `desktop.ini`, `__MACOSX/`): not
 *   published, listed;
 * - start page: the .html files nearest the top of the zip; `index.html` among them, else the
 *   only one (a build zipped with its folder, `MyGame/index.html`, works too);
 * - GameMaker HTML5: an `html5game/` folder beside the start page;
 * - Unity WebGL: `Build/*.loader.js` beside the start page (2020+), or `Build/UnityLoader.js`
 *   (2017–2019, with a `.json` and `.unityweb` files);
 * - Godot: the start page holds `GODOT_CONFIG` (3.3+, 4.x) or starts `new Engine` with a `.pck`
 *   beside it (3.2; also `index.pck.gz`/`.br`, which GitHub Pages CI jobs gzip and the page
 *   inflates itself). Godot 4 when the config has a 4.x key (`gdextensionLibs`,
 *   `ensureCrossOriginIsolationHeaders`, `emscriptenPoolSize`, `godotPoolSize`) or the page sets
 *   `GODOT_THREADS_ENABLED`, else Godot 3;
 * - threads (Godot): `GODOT_THREADS_ENABLED = true|false` when the page says (4.3+); else a
 *   `*.worker.js` beside the start page (Emscripten's pthread worker: 3.x threads, 4.0–4.2);
 *   else the engine script (the config's `executable` + `.js`) carrying Emscripten's pthread
 *   runtime (`ENVIRONMENT_IS_PTHREAD`, `_emscripten_thread_init`, or a `SharedArrayBuffer` with
 *   pthreads), as a threaded build with a custom page (no GODOT_THREADS_ENABLED) does. Godot 4.3+
 *   writes `"ensureCrossOriginIsolationHeaders": true` into every export's config, threaded or
 *   not: on its own it says nothing about threads;
 * - anything else: plain HTML5.
 */

export interface BuildDetection {
  entry: string;
  engine: BuildEngine;
  needsThreads: boolean;
}

/** Folders of a zip that no browser needs (macOS resource forks, a desktop app bundle). */
const LEFT_OUT_FOLDER = /(^|\/)(__MACOSX|[^/]+\.app)\//i;
/** Files of a zip that no browser needs: desktop binaries, debug symbols, file-manager strays. */
const LEFT_OUT_FILE =
  /(\.(exe|dll|pdb|so|dylib)|(^|\/)(\.DS_Store|\._[^/]*|Thumbs\.db|desktop\.ini))$/i;

/** Whether a file of an upload is left out of the published build (never served). */
export function isLeftOut(file: string): boolean {
  return LEFT_OUT_FOLDER.test(file) || LEFT_OUT_FILE.test(file);
}

/**
 * What is left out of `files`, for the admin: each file, except that a left-out folder
 * (`Game.app/`, `__MACOSX/`) is listed once, by its name with a slash.
 */
export function listLeftOut(files: readonly string[]): string[] {
  const listed = new Set<string>();
  for (const file of files) {
    const folder = LEFT_OUT_FOLDER.exec(file);
    if (folder) {
      listed.add(file.slice(0, folder.index + folder[0].length));
    } else if (LEFT_OUT_FILE.test(file)) {
      listed.add(file);
    }
  }
  return [...listed].sort();
}

/** How much of a page or engine script is read to recognise it. */
export const READ_LIMIT = 8 * 1024 * 1024;

/** The first READ_LIMIT bytes of a build's file (its '/'-separated path), as text. */
export type HeadReader = (file: string) => Promise<string>;

/** Reads heads from the build unpacked at `root`. */
export function headsIn(root: string): HeadReader {
  return async (file) => {
    const handle = await open(path.join(root, ...file.split('/')), 'r');
    try {
      const buffer = Buffer.alloc(Math.min(READ_LIMIT, (await handle.stat()).size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  };
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

/** Detects the start page, engine and threads of a build of `files`, reading heads by `read`. */
export async function detectBuild(
  files: readonly string[],
  read: HeadReader,
): Promise<BuildDetection> {
  const entry = findStartPage(files);
  const base = entry.includes('/') ? `${path.posix.dirname(entry)}/` : '';
  const beside = files
    .filter((file) => file.startsWith(base))
    .map((file) => file.slice(base.length));
  const plain: BuildDetection = { entry, engine: 'html5', needsThreads: false };

  if (beside.some((file) => file.startsWith('html5game/'))) {
    return { ...plain, engine: 'gamemaker' };
  }
  if (beside.some((file) => /^Build\/([^/]+\.loader|UnityLoader)\.js$/.test(file))) {
    return { ...plain, engine: 'unity' };
  }
  const page = await read(entry);
  const hasConfig = page.includes('GODOT_CONFIG');
  const hasPck = beside.some((file) => /\.pck(\.gz|\.br)?$/.test(file));
  if (!hasConfig && !(hasPck && /new\s+Engine\b/.test(page))) {
    return plain;
  }
  const engine: BuildEngine = GODOT4_KEYS.test(page) ? 'godot4' : 'godot3';
  return { entry, engine, needsThreads: await godotNeedsThreads(read, base, beside, page) };
}

async function godotNeedsThreads(
  read: HeadReader,
  base: string,
  beside: readonly string[],
  page: string,
): Promise<boolean> {
  const declared = /GODOT_THREADS_ENABLED\s*=\s*(true|false)/.exec(page);
  if (declared) {
    return declared[1] === 'true';
  }
  if (beside.some((file) => !file.includes('/') && file.endsWith('.worker.js'))) {
    return true;
  }
  const executable = /"executable"\s*:\s*"([^"]+)"/.exec(page)?.[1];
  const script = executable ? `${executable}.js` : undefined;
  if (script && beside.includes(script)) {
    const code = await read(`${base}${script}`);
    // Emscripten's pthread runtime (a page of its own without GODOT_THREADS_ENABLED, as custom
    // pages have); a single-threaded engine script names none of these
    return (
      /\b_?_emscripten_thread_init\b|\bENVIRONMENT_IS_PTHREAD\b/.test(code) ||
      (/new\s+SharedArrayBuffer/.test(code) && /pthread/i.test(code))
    );
  }
  return false;
}

/**
 * Deletes from the unpacked build at `root` what is left out of it (isLeftOut), and answers the
 * files kept and the list shown to the admin.
 */
export async function removeLeftOut<T extends { path: string }>(
  root: string,
  files: readonly T[],
): Promise<{ kept: T[]; leftOut: string[] }> {
  const leftOut = listLeftOut(files.map((file) => file.path));
  if (leftOut.length === 0) {
    return { kept: [...files], leftOut };
  }
  // a folder's whole tree goes at once (`Game.app/`), then each file
  for (const item of leftOut) {
    await rm(path.join(root, ...item.split('/').filter(Boolean)), { recursive: true, force: true });
  }
  return { kept: files.filter((file) => !isLeftOut(file.path)), leftOut };
}
