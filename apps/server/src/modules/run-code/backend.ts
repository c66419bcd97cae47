import type { CppStandard, OptimizationLevel, RunCodeBackend } from '@portfolio/types';

/** One compile-and-run, as a backend receives it. */
export interface RunJob {
  source: string;
  stdin: string;
  standard: CppStandard;
  optimization: OptimizationLevel;
  /** The queue slot (0 … slots-1) this run holds; the native sandbox runs it under its own uid. */
  slot: number;
}

/** How a run ended, before the runner adds its diagnostics and cache flags. */
export interface RunOutcome {
  /** The program's output with notices, or the compiler's messages when the compile failed. */
  output: string;
  /** Everything the compiler said (warnings too), parsed into diagnostics by the runner. */
  compilerOutput: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  truncated: boolean;
  compiled: boolean;
  /** How long the program ran (0 when it did not): what the run time budget counts. */
  durationMs: number;
  /**
   * CPU time the compile used (the compiler's processes or thread, waiting for a free compiler
   * or its warm-up not included): what the compile time budget counts.
   */
  compileCpuMs: number;
  /** CPU time of the program's whole process tree, where the backend measures it (native). */
  cpuMs?: number;
}

export type BackendStatus =
  { ok: true; compiler: string } | { ok: false; reason: string; compiler?: string };

/** A way to compile and run C++ safely: the native sandbox or Clang in WebAssembly. */
export interface RunBackend {
  readonly name: RunCodeBackend;
  /** Checks once that this backend works here (a self-test run); never throws. */
  detect(): Promise<BackendStatus>;
  /** Compiles and runs one job; rejects with BackendFailure only when the backend itself broke. */
  run(job: RunJob): Promise<RunOutcome>;
  /** Background warm-up after a successful detect (precompiled headers, warm compilers). */
  prebuild(): Promise<void>;
  close(): void;
}

/** The backend itself failed (not the submitted program): a server problem, never the user's. */
export class BackendFailure extends Error {
  override name = 'BackendFailure';
}
