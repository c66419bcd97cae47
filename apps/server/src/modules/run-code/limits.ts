import { RUN_CODE_MAX_SOURCE_BYTES, RUN_CODE_MAX_STDIN_BYTES } from '@portfolio/types';

import { HttpError } from '../../lib/errors.js';

/**
 * JSON escaping can make a 64 KB text up to six times longer (`\u0001`), so a body may be larger
 * than the source and the input it carries; their own sizes are checked after parsing.
 */
export const RUN_CODE_BODY_LIMIT_BYTES =
  (RUN_CODE_MAX_SOURCE_BYTES + RUN_CODE_MAX_STDIN_BYTES) * 6 + 1024;

export const sourceTooLarge = () =>
  new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The source code is too large: the limit is ${RUN_CODE_MAX_SOURCE_BYTES / 1024} KB.`,
  );

export const stdinTooLarge = () =>
  new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The standard input is too large: the limit is ${RUN_CODE_MAX_STDIN_BYTES / 1024} KB.`,
  );

const MiB = 1024 * 1024;

/** What one submission may use, on either backend. Tests exercise each of them. */
export const RUN_CODE_LIMITS = {
  /** CPU time for the compile (the compiler and everything it starts). */
  compileSeconds: 10,
  /**
   * Wall time for the compile: nothing a compile can read blocks any more (no devices, no paths
   * outside), so this only ends compiles starved on a busy machine; Clang in WebAssembly also
   * needs several times g++'s CPU. The slot time counts against the address either way.
   */
  compileWallSeconds: 30,
  /** cc1plus maps the precompiled header (up to ~100 MB) and needs room for templates. */
  compileMemoryBytes: 1024 * MiB,
  compileProcesses: 64,
  /** CPU time of the program and every process it starts, together. */
  runCpuSeconds: 2,
  runWallSeconds: 5,
  runMemoryBytes: 256 * MiB,
  /** Counted per uid: the sandbox's own processes (bwrap, sh, helper) are a few of them. */
  runProcesses: 32,
  /** Program output (stdout and stderr together) and compiler messages. */
  outputBytes: 64 * 1024,
  /** Largest single file a compile or the program may write (inside the private /tmp). */
  fileBytes: 32 * MiB,
  /** The private /tmp (a tmpfs in memory) as a whole. */
  tmpBytes: 64 * MiB,
} as const;

/** The notices both backends append to the output, word for word the same. */
export const NOTICES = {
  truncated: `Output truncated: more than ${RUN_CODE_LIMITS.outputBytes / 1024} KB`,
  cpuLimit: `Program stopped: it used more than ${RUN_CODE_LIMITS.runCpuSeconds} s of CPU time`,
  wallLimit: `Program stopped: it ran longer than ${RUN_CODE_LIMITS.runWallSeconds} s`,
  compileCpuLimit: `Compilation stopped: it used more than ${RUN_CODE_LIMITS.compileSeconds} s of CPU time`,
  /** The compile's wall-time limit (RUN_CODE_COMPILE_WALL_SECONDS, 30 s unless set). */
  compileWallLimit: (seconds: number) => `Compilation stopped: it took longer than ${seconds} s`,
  signal: (name: string) => `Program terminated by ${name}`,
} as const;

/**
 * What a compile that passes compileMemoryBytes says. g++ under the native backend's address
 * space limit prints "cc1plus: out of memory allocating N bytes after a total of M bytes"; Clang
 * in WebAssembly cannot say how much it had, so it says this, in the same words.
 */
export const COMPILE_OUT_OF_MEMORY = `clang++: out of memory (a compile may use ${RUN_CODE_LIMITS.compileMemoryBytes / MiB} MB)\n`;

/** `output` with `[notice]` on a line of its own. */
export function withNotice(output: string, notice: string): string {
  const separator = output === '' || output.endsWith('\n') ? '' : '\n';
  return `${output}${separator}[${notice}]\n`;
}
