import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { CppStandard, OptimizationLevel } from '@portfolio/types';

import { COMPILE_FLAGS, compileFlags, type SandboxTools } from './sandbox.js';
import type { ProcessLauncher } from './spawner.js';

/**
 * The standard headers a precompiled header may be made of. Only these names are ever written
 * into a header we compile on the host, so a submission cannot make the server compile anything
 * but the system's own library headers.
 */
const STANDARD_HEADERS = new Set(
  [
    'algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv',
    'chrono cinttypes climits clocale cmath codecvt compare complex concepts condition_variable',
    'coroutine csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar',
    'cwctype deque exception execution filesystem format forward_list fstream functional future',
    'initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map',
    'memory memory_resource mutex new numbers numeric optional ostream queue random ranges ratio',
    'regex scoped_allocator semaphore set shared_mutex source_location span sstream stack',
    'stdexcept stop_token streambuf string string_view syncstream system_error thread tuple',
    'type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector',
    'version bits/stdc++.h assert.h ctype.h errno.h float.h inttypes.h limits.h math.h',
    'setjmp.h signal.h stdarg.h stddef.h stdint.h stdio.h stdlib.h string.h time.h',
  ]
    .join(' ')
    .split(' '),
);

/** Longer than any header build may take (the build's own time limit is 2 minutes). */
const STALE_STAGING_MS = 10 * 60_000;

const INCLUDE_LINE = /^\s*#\s*include\s*<([\w./+]+)>\s*(\/\/.*)?$/;

/**
 * The standard headers a source includes before anything else (blank lines and comments
 * aside), in order. Forcing exactly these with `-include` changes nothing the program sees: the
 * same headers are read first either way and its own #include lines then hit include guards.
 * Stops at the first line of any other kind.
 */
export function leadingStandardIncludes(source: string): string[] {
  const headers: string[] = [];
  let inBlockComment = false;
  for (const rawLine of source.split('\n')) {
    let line = rawLine.trim();
    if (inBlockComment) {
      const end = line.indexOf('*/');
      if (end < 0) {
        continue;
      }
      inBlockComment = false;
      line = line.slice(end + 2).trim();
    }
    if (line.startsWith('/*')) {
      const end = line.indexOf('*/', 2);
      if (end < 0) {
        inBlockComment = true;
        continue;
      }
      line = line.slice(end + 2).trim();
    }
    if (line === '' || line.startsWith('//')) {
      continue;
    }
    const match = INCLUDE_LINE.exec(line);
    const header = match?.[1];
    if (!header || !STANDARD_HEADERS.has(header) || line.endsWith('\\')) {
      break;
    }
    headers.push(header);
  }
  return headers;
}

/** Headers prepared at start: the tutorial's hello world and the competitive programmer's. */
export const PREBUILT_INCLUDE_SETS: readonly (readonly string[])[] = [
  ['iostream'],
  ['bits/stdc++.h'],
];

export interface PchStore {
  /**
   * The folder of a ready header for the source's leading includes, if there is one; otherwise
   * notes the use: a set seen twice is built in the background (within the store's bounds).
   */
  lookup(
    source: string,
    standard: CppStandard,
    optimization: OptimizationLevel,
  ): string | undefined;
  /** Builds the prebuilt sets (in order, one at a time). */
  prebuild(): Promise<void>;
  /** Finished, in-progress and failed builds, for logs and tests. */
  readonly readyCount: number;
}

/**
 * Precompiled headers in `dir`, one folder per include set: `pch.h` (the includes) and
 * `pch.h.gch`, built on the host with the compile flags (a .gch is only used with identical
 * flags and compiler, so the folder name hashes both). Builds run one at a time at low priority;
 * at most `maxSets` exist, so submissions cannot fill the disk.
 */
export function createPchStore(options: {
  dir: string;
  tools: SandboxTools;
  /** Starts the compiler (from the spawner, so the server's event loop never forks). */
  launcher: ProcessLauncher;
  compilerVersion: string;
  maxSets?: number;
  /** Include sets prebuild() makes; default PREBUILT_INCLUDE_SETS. */
  prebuilt?: readonly (readonly string[])[];
  log?: (message: string) => void;
}): PchStore {
  const { dir, tools } = options;
  const maxSets = options.maxSets ?? 12;
  const ready = new Map<string, string>();
  const uses = new Map<string, number>();
  const failed = new Set<string>();
  let building: Promise<void> = Promise.resolve();
  const queued = new Set<string>();

  const keyOf = (headers: readonly string[], flags: readonly string[]) =>
    createHash('sha256')
      .update([options.compilerVersion, ...flags, '', ...headers].join('\n'))
      .digest('hex')
      .slice(0, 20);

  // headers built by an earlier start (or another process sharing the data folder)
  const discovered = (async () => {
    await mkdir(dir, { recursive: true, mode: 0o755 });
    await chmod(dir, 0o755);
    for (const name of await readdir(dir)) {
      const folder = path.join(dir, name);
      if (/^[0-9a-f]{20}$/.test(name) && existsSync(path.join(folder, 'pch.h.gch'))) {
        ready.set(name, folder);
      } else if (name.startsWith('.staging-')) {
        // a build cut short by a stop; one still running elsewhere is younger than this
        const { mtimeMs } = await stat(folder);
        if (Date.now() - mtimeMs > STALE_STAGING_MS) {
          await rm(folder, { recursive: true, force: true });
        }
      }
    }
  })().catch((error: unknown) => {
    options.log?.(`precompiled headers folder unreadable: ${String(error)}`);
  });

  async function build(headers: readonly string[], flags: readonly string[]): Promise<void> {
    const key = keyOf(headers, flags);
    await discovered;
    if (ready.has(key) || failed.has(key)) {
      return;
    }
    const target = path.join(dir, key);
    if (existsSync(path.join(target, 'pch.h.gch'))) {
      ready.set(key, target);
      return;
    }
    const staging = path.join(dir, `.staging-${key}-${randomBytes(4).toString('hex')}`);
    await mkdir(staging, { recursive: true, mode: 0o755 });
    try {
      const header = headers.map((name) => `#include <${name}>\n`).join('');
      await writeFile(path.join(staging, 'pch.h'), header, { mode: 0o644 });
      const started = performance.now();
      const result = await options.launcher.host(
        'nice',
        ['-n', '10', tools.gpp, ...flags, '-x', 'c++-header', 'pch.h', '-o', 'pch.h.gch'],
        { timeoutMs: 120_000, cwd: staging },
      );
      if (result.code !== 0) {
        failed.add(key);
        options.log?.(`precompiled header <${headers.join('>, <')}> failed: ${result.stderr}`);
        return;
      }
      // readable by the slots' uids whatever the server's umask (a careful owner's 077)
      await chmod(staging, 0o755);
      await chmod(path.join(staging, 'pch.h'), 0o644);
      await chmod(path.join(staging, 'pch.h.gch'), 0o644);
      try {
        await rename(staging, target);
      } catch (error) {
        // another process sharing the data folder finished the same header first: use that one
        if (!existsSync(path.join(target, 'pch.h.gch'))) {
          throw error;
        }
      }
      ready.set(key, target);
      options.log?.(
        `precompiled header <${headers.join('>, <')}> built in ${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  function enqueue(headers: readonly string[], flags: readonly string[]): Promise<void> {
    const key = keyOf(headers, flags);
    if (queued.has(key)) {
      return building;
    }
    queued.add(key);
    building = building
      .then(() => build(headers, flags))
      .catch((error: unknown) => {
        failed.add(key);
        options.log?.(`precompiled header build failed: ${String(error)}`);
      })
      .finally(() => queued.delete(key));
    return building;
  }

  return {
    lookup(source, standard, optimization) {
      const headers = leadingStandardIncludes(source);
      if (headers.length === 0) {
        return undefined;
      }
      const flags = compileFlags(standard, optimization);
      const key = keyOf(headers, flags);
      const folder = ready.get(key);
      if (folder !== undefined || failed.has(key) || ready.size + queued.size >= maxSets) {
        return folder;
      }
      if (uses.size >= 1000) {
        uses.clear();
      }
      const count = (uses.get(key) ?? 0) + 1;
      uses.set(key, count);
      if (count >= 2) {
        uses.delete(key);
        void enqueue(headers, flags);
      }
      return undefined;
    },
    async prebuild() {
      for (const headers of options.prebuilt ?? PREBUILT_INCLUDE_SETS) {
        await enqueue(headers, COMPILE_FLAGS);
      }
    },
    get readyCount() {
      return ready.size;
    },
  };
}
