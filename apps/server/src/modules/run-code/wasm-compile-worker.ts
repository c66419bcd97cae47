/**
 * A compile worker of the WebAssembly backend: keeps Clang (LLVM in WebAssembly, from
 * @yowasp/clang) loaded and compiles one source at a time to a WASI program. Clang only sees a
 * virtual file system holding the source and its own headers: nothing of the host.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { commands, runLLVM } from '@yowasp/clang';

import { COMPILE_OUT_OF_MEMORY, RUN_CODE_LIMITS } from './limits.js';
import { capCompiledMemory, Wasm } from './wasm-memory-cap.js';
import { leadingStandardIncludes } from './pch.js';
import {
  type CompileAnswer,
  type CompileRequest,
  type CompileWorkerData,
  type CompileWorkerMessage,
  currentThreadId,
} from './wasm-protocol.js';

type Tree = { [name: string]: Tree | string | Uint8Array };

const clang = commands['clang++'];

// the compiler's memory gets the native compile's cap (Clang is compiled when first run, below)
capCompiledMemory(RUN_CODE_LIMITS.compileMemoryBytes);

/** wasm-ld's memory cap: the program's whole linear memory, like the native address-space limit. */
const MAX_MEMORY = RUN_CODE_LIMITS.runMemoryBytes;
/** 8 MB of stack at the bottom of memory, so an overflow traps instead of overwriting data. */
const STACK_BYTES = 8 * 1024 * 1024;

/**
 * libc++ has no <bits/stdc++.h>, which competitive programmers include: this one includes every
 * standard header the chosen standard has.
 */
const STDCXX_HEADER = [
  'algorithm any array atomic bit bitset cassert cctype cerrno cfloat charconv chrono cinttypes',
  'climits cmath compare complex concepts cstddef cstdint cstdio cstdlib cstring ctime deque',
  'exception format forward_list functional initializer_list iomanip ios iosfwd iostream istream',
  'iterator limits list map memory new numbers numeric optional ostream queue random ranges ratio',
  'set span sstream stack stdexcept string string_view tuple type_traits typeinfo unordered_map',
  'unordered_set utility valarray variant vector',
]
  .join(' ')
  .split(' ')
  .map((name) => `#if __has_include(<${name}>)\n#include <${name}>\n#endif\n`)
  .join('');

/** The virtual folder holding <bits/stdc++.h> (searched after the sysroot's own headers). */
const EXTRA_INCLUDE_DIR = 'extra-include';

/** Flags a precompiled header must share with the compiles that use it. */
function languageArgs(request: Pick<CompileRequest, 'standard' | 'optimization'>): string[] {
  return [
    `-std=${request.standard}`,
    `-${request.optimization}`,
    // the sysroot's C++ runtime has no exception support (see README): try/throw are errors
    '-fno-exceptions',
    '-idirafter',
    EXTRA_INCLUDE_DIR,
  ];
}

function compilerArgs(request: CompileRequest, pch: string | undefined): string[] {
  return [
    ...languageArgs(request),
    ...(pch ? ['-include-pch', pch] : []),
    '-Wall',
    '-Wextra',
    '-fno-color-diagnostics',
    '-fdiagnostics-print-source-range-info',
    'main.cpp',
    '-o',
    'prog',
    `-Wl,--max-memory=${MAX_MEMORY}`,
    '-Wl,--stack-first',
    `-Wl,-z,stack-size=${STACK_BYTES}`,
    // no name or producers sections: a program 40 % smaller, linked ~20 ms sooner (a trap's
    // message does not use the names)
    '-Wl,--strip-all',
  ];
}

/**
 * The commands the clang++ driver runs for a compile (cc1, then wasm-ld), found once per set of
 * arguments with `-###` and then run directly: @yowasp/clang's clang++ asks the driver for them on
 * every call, which costs a whole start of the compiler. The arguments only differ between
 * compiles in the standard, the level and the header, so there are a handful.
 */
const driverPlans = new Map<string, string[][]>();

/** Parses the driver's `-###` output as @yowasp/clang's clang++ does (quoted arguments). */
function parseDriverOutput(output: string): string[][] | undefined {
  const plan: string[][] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith(' "')) {
      continue;
    }
    const command = Array.from(
      line.matchAll(/ (?:([^ "]+)|"((?:[^"\\$]|\\["\\$])+)")/g),
      (match) =>
        match[1] ?? (match[2] ?? '').replaceAll(/\\["$\\]/g, (escaped) => escaped[1] ?? ''),
    );
    if (command[0] === '') {
      command.shift();
    }
    plan.push(command);
  }
  return plan.length > 0 ? plan : undefined;
}

async function driverPlan(args: string[], files: Tree): Promise<string[][] | undefined> {
  const key = JSON.stringify(args);
  const known = driverPlans.get(key);
  if (known) {
    return known;
  }
  let output = '';
  try {
    await runLLVM(['clang++', '-###', ...args], files, {
      stdout: (bytes) => {
        output += bytes ? Buffer.from(bytes).toString('utf8') : '';
      },
      stderr: (bytes) => {
        output += bytes ? Buffer.from(bytes).toString('utf8') : '';
      },
    });
  } catch {
    return undefined;
  }
  const plan = parseDriverOutput(output);
  if (plan) {
    driverPlans.set(key, plan);
  }
  return plan;
}

/** clang++ with these arguments, running the driver's commands itself (see driverPlans). */
async function clangCompile(
  args: string[],
  files: Tree,
  options: {
    stdout: (bytes: Uint8Array | null) => void;
    stderr: (bytes: Uint8Array | null) => void;
  },
): Promise<Tree> {
  const plan = await driverPlan(args, files);
  if (!plan) {
    // the driver has something to say (a bad argument…): clang++ runs it and reports it
    return (await clang(args, files, { ...options, decodeASCII: false })) as Tree;
  }
  let tree = files;
  try {
    for (const command of plan) {
      tree = (await runLLVM(command, tree, { ...options, decodeASCII: false })) as Tree;
    }
  } catch (error) {
    if (error instanceof Error && 'files' in error) {
      delete (error.files as Tree).tmp;
    }
    throw error;
  }
  delete tree.tmp;
  return tree;
}

function post(message: CompileWorkerMessage, transfer: ArrayBuffer[] = []) {
  parentPort?.postMessage(message, transfer);
}

const extraFiles = (): Tree => ({ [EXTRA_INCLUDE_DIR]: { bits: { 'stdc++.h': STDCXX_HEADER } } });

/**
 * Precompiled headers, as the native backend has them: one per set of standard headers a source
 * includes first (and the standard and level), built here after a set's second use (the
 * tutorials' <iostream> at warm-up), at most PCH_MAX per worker. Compiling with exactly the
 * source's own leading headers precompiled is the same program.
 */
const PCH_MAX = 8;
const pchs = new Map<string, Uint8Array>();
const pchUses = new Map<string, number>();
const PCH_FILE = 'pch.h.pch';

function pchKey(
  headers: readonly string[],
  request: Pick<CompileRequest, 'standard' | 'optimization'>,
) {
  return JSON.stringify([headers, request.standard, request.optimization]);
}

const headerText = (headers: readonly string[]) =>
  headers.map((name) => `#include <${name}>\n`).join('');

async function buildPch(
  headers: readonly string[],
  request: Pick<CompileRequest, 'standard' | 'optimization'>,
): Promise<void> {
  const key = pchKey(headers, request);
  if (pchs.has(key) || pchs.size >= PCH_MAX) {
    return;
  }
  try {
    const files = (await clang(
      [
        ...languageArgs(request),
        // the templates the headers use are instantiated once here instead of in every compile
        // (halves a hello world's cc1 time); as clang-cl does for its precompiled headers
        '-fpch-instantiate-templates',
        '-x',
        'c++-header',
        'pch.h',
        '-o',
        PCH_FILE,
      ],
      { 'pch.h': headerText(headers), ...extraFiles() },
      { stdout: () => undefined, stderr: () => undefined, decodeASCII: false },
    )) as Tree;
    const built = files[PCH_FILE];
    if (built instanceof Uint8Array) {
      pchs.set(key, built);
    }
  } catch {
    // a header set that does not precompile is compiled from source each time
  }
}

async function compile(request: CompileRequest): Promise<void> {
  // the parent's clocks for this compile start now, not while a header was being built
  post({ type: 'started', id: request.id });
  const headers = leadingStandardIncludes(request.source);
  const key = headers.length > 0 ? pchKey(headers, request) : undefined;
  const pch = key ? pchs.get(key) : undefined;
  try {
    const answer = await compileWith(request, pch ? { headers, bytes: pch } : undefined);
    post(
      answer,
      answer.type === 'compiled' && answer.ok ? [answer.program.buffer as ArrayBuffer] : [],
    );
  } finally {
    if (key && !pch) {
      const uses = (pchUses.get(key) ?? 0) + 1;
      pchUses.set(key, uses);
      if (uses >= 2) {
        await buildPch(headers, request);
      }
    }
  }
}

/** What LLVM prints when an allocation fails (before it aborts or exits). */
const OUT_OF_MEMORY_MESSAGE = /^LLVM ERROR: (out of memory|.*Allocation failed)/m;

/**
 * Whether a compile that threw ran out of memory: at the cap its allocations fail, and Clang
 * reports that ("LLVM ERROR: out of memory") and aborts, which traps (or a grow traps itself).
 */
function isOutOfMemory(error: unknown, messages: string): boolean {
  if (OUT_OF_MEMORY_MESSAGE.test(messages)) {
    return true;
  }
  return (
    error instanceof Wasm.RuntimeError ||
    (error instanceof RangeError && /memory/i.test(error.message))
  );
}

async function compileWith(
  request: CompileRequest,
  pch: { headers: readonly string[]; bytes: Uint8Array } | undefined,
): Promise<CompileAnswer> {
  const limit = RUN_CODE_LIMITS.outputBytes;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  // the first `limit` bytes of the compiler's messages, and whether there were more
  const collect = (bytes: Uint8Array | null) => {
    if (!bytes || truncated) {
      return;
    }
    const room = limit - size;
    if (bytes.length > room) {
      chunks.push(new Uint8Array(bytes.subarray(0, room)));
      size = limit;
      truncated = true;
      return;
    }
    chunks.push(new Uint8Array(bytes));
    size += bytes.length;
  };
  const messages = () => Buffer.concat(chunks).toString('utf8');
  let files: Tree;
  try {
    files = await clangCompile(
      compilerArgs(request, pch ? PCH_FILE : undefined),
      {
        'main.cpp': request.source,
        ...extraFiles(),
        ...(pch ? { 'pch.h': headerText(pch.headers), [PCH_FILE]: pch.bytes } : {}),
      },
      { stdout: collect, stderr: collect },
    );
  } catch (error) {
    if (error instanceof Error && 'code' in error && !OUT_OF_MEMORY_MESSAGE.test(messages())) {
      // the compiler exited with an error status: its messages say why
      return { type: 'compiled', id: request.id, ok: false, compilerOutput: messages(), truncated };
    }
    if (isOutOfMemory(error, messages())) {
      return {
        type: 'compiled',
        id: request.id,
        ok: false,
        compilerOutput: COMPILE_OUT_OF_MEMORY,
        truncated: false,
      };
    }
    return {
      type: 'failed',
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  const program = files.prog;
  if (!(program instanceof Uint8Array)) {
    return { type: 'compiled', id: request.id, ok: false, compilerOutput: messages(), truncated };
  }
  return {
    type: 'compiled',
    id: request.id,
    ok: true,
    compilerOutput: messages(),
    truncated,
    program: new Uint8Array(program),
  };
}

/**
 * A worker's first compiles are several times slower than the next ones (V8 compiles Clang's
 * code as it first runs), and a header set's first compiles with its precompiled header are
 * ~2× slower again: the worker does them before it says it is ready, so that no visitor's compile
 * pays for them, counts them against its limits or its budget, or times out on a busy machine.
 * The program (the tutorials' first header, <iostream>) is compiled, its header precompiled, and
 * compiled once more with it.
 */
async function warmUp(request: CompileRequest): Promise<void> {
  const headers = leadingStandardIncludes(request.source);
  await compileWith(request, undefined);
  if (headers.length === 0) {
    return;
  }
  await buildPch(headers, request);
  const bytes = pchs.get(pchKey(headers, request));
  await compileWith(request, bytes ? { headers, bytes } : undefined);
}

async function main() {
  // loads and compiles the toolchain once (the slow part, ~4 s) and warms it up (see warmUp);
  // compiles then reuse it
  await clang(undefined, {}, { fetchProgress: () => undefined });
  let version = '';
  await clang(
    ['--version'],
    {},
    {
      stdout: (bytes) => {
        if (bytes) {
          version += Buffer.from(bytes).toString('utf8');
        }
      },
      stderr: () => undefined,
    },
  );
  const { warmUp: warmUpRequest } = workerData as CompileWorkerData;
  if (warmUpRequest) {
    await warmUp(warmUpRequest);
  }
  post({
    type: 'ready',
    tid: (await currentThreadId()) || -1,
    version: version.split('\n')[0] ?? '',
  });
  let queue = Promise.resolve();
  parentPort?.on('message', (request: CompileRequest) => {
    queue = queue.then(() => compile(request));
  });
}

void main();
