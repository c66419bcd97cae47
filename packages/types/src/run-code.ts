import { z } from 'zod';

/** The largest C++ source `POST /run-code` accepts, in bytes of UTF-8; larger sources get a 413. */
export const RUN_CODE_MAX_SOURCE_BYTES = 64 * 1024;

/** The largest standard input a run takes, in bytes of UTF-8; more is a 413. */
export const RUN_CODE_MAX_STDIN_BYTES = 64 * 1024;

/** The C++ standards a run may ask for (`-std=`), oldest first. */
export const CPP_STANDARDS = ['c++11', 'c++14', 'c++17', 'c++20', 'c++23'] as const;
export const CppStandard = z.enum(CPP_STANDARDS, {
  error: `must be one of ${CPP_STANDARDS.join(', ')}`,
});
export type CppStandard = z.infer<typeof CppStandard>;
export const DEFAULT_CPP_STANDARD: CppStandard = 'c++17';

/** Optimisation levels (`-O0` … `-Os`). */
export const OPTIMIZATION_LEVELS = ['O0', 'O1', 'O2', 'O3', 'Os'] as const;
export const OptimizationLevel = z.enum(OPTIMIZATION_LEVELS, {
  error: `must be one of ${OPTIMIZATION_LEVELS.join(', ')}`,
});
export type OptimizationLevel = z.infer<typeof OptimizationLevel>;
export const DEFAULT_OPTIMIZATION: OptimizationLevel = 'O2';

/**
 * `POST /run-code` body: one C++ translation unit, with what Compiler Explorer and Wandbox let
 * a user choose. Only `code` is required (the spec's call); the rest have defaults.
 */
export const RunCodeRequest = z.object({
  code: z.string().min(1, 'is required'),
  stdin: z.string().default(''),
  standard: CppStandard.default(DEFAULT_CPP_STANDARD),
  optimization: OptimizationLevel.default(DEFAULT_OPTIMIZATION),
});
export type RunCodeRequest = z.input<typeof RunCodeRequest>;
/** A parsed `RunCodeRequest`: the defaults filled in. */
export type RunCodeInput = z.output<typeof RunCodeRequest>;

/** Which sandbox runs programs: bubblewrap + g++ on the host, or Clang in WebAssembly. */
export const RUN_CODE_BACKENDS = ['native', 'wasm'] as const;
export const RunCodeBackend = z.enum(RUN_CODE_BACKENDS);
export type RunCodeBackend = z.infer<typeof RunCodeBackend>;

/** One compiler message at its place in the source (1-based line and column). */
export const CompilerDiagnostic = z.object({
  severity: z.enum(['error', 'warning', 'note']),
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  endLine: z.number().int().positive().optional(),
  endColumn: z.number().int().positive().optional(),
  message: z.string(),
});
export type CompilerDiagnostic = z.infer<typeof CompilerDiagnostic>;

/**
 * `POST /run-code` answer. `output` holds the compiler's messages when the compile fails, else
 * the program's standard output and error (the compiler's warnings are in `diagnostics`).
 * `exitCode` is null when the program was killed (time limit, signal) or never ran; `signal`
 * names the signal that ended it (`SIGKILL`, `SIGSEGV`…), null otherwise. `timedOut` is true only
 * when a time limit ended it. `truncated` says the output was cut at the limit (with a notice).
 * `compiled` is false when the compile failed (then nothing ran). `durationMs` is the program's
 * own run time (0 when it never ran), `cached` that this answer came from the result cache.
 */
export const RunCodeResponse = z.object({
  output: z.string(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
  compiled: z.boolean(),
  diagnostics: z.array(CompilerDiagnostic),
  durationMs: z.number().nonnegative(),
  cached: z.boolean(),
  backend: RunCodeBackend,
});
export type RunCodeResponse = z.infer<typeof RunCodeResponse>;

/** The limits every run gets, shown beside Run. */
export const RunCodeLimits = z.object({
  cpuSeconds: z.number().positive(),
  wallSeconds: z.number().positive(),
  memoryMb: z.number().positive(),
  outputKb: z.number().positive(),
  compileSeconds: z.number().positive(),
});
export type RunCodeLimits = z.infer<typeof RunCodeLimits>;

/**
 * `GET /api/run-code/info`: which backend runs and why, or why none can (`backend` null,
 * `available` false, `reason` the real cause), and the limits and choices a run has.
 */
export const RunCodeInfo = z.object({
  available: z.boolean(),
  backend: RunCodeBackend.nullable(),
  reason: z.string(),
  compiler: z.string(),
  limits: RunCodeLimits,
  standards: z.array(CppStandard),
  optimizations: z.array(OptimizationLevel),
});
export type RunCodeInfo = z.infer<typeof RunCodeInfo>;

/** A shared snippet's id: a URL-safe prefix of the hash of its content. */
export const SNIPPET_ID_PATTERN = /^[A-Za-z0-9_-]{10,32}$/;
export const SnippetId = z.string().regex(SNIPPET_ID_PATTERN, 'must be a snippet id');

/** `POST /api/snippets` body (same-origin JSON); the same limits as a run. */
export const ShareSnippetRequest = RunCodeRequest;
export type ShareSnippetRequest = RunCodeRequest;

/**
 * `POST /api/snippets` answer (201, or 200 when the same snippet was shared before: ids are
 * content-addressed) and `GET /api/snippets/:id`. `url` is the site path that opens it:
 * `/Tutorials?snippet=<id>`.
 */
export const Snippet = z.object({
  id: SnippetId,
  code: z.string(),
  stdin: z.string(),
  standard: CppStandard,
  optimization: OptimizationLevel,
  url: z.string(),
  createdAt: z.string(),
});
export type Snippet = z.infer<typeof Snippet>;
