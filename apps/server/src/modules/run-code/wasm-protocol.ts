/** Messages between the WebAssembly backend and its worker threads (see wasm-backend.ts). */
import type { CppStandard, OptimizationLevel } from '@portfolio/types';

export interface CompileRequest {
  id: number;
  source: string;
  standard: CppStandard;
  optimization: OptimizationLevel;
}

/** What a compile worker starts with. */
export interface CompileWorkerData {
  /** A program the worker compiles (with its precompiled header) before it is ready. */
  warmUp?: CompileRequest;
}

export type CompileWorkerMessage =
  /** The worker's OS thread (for its CPU time), and that the compiler is loaded and warmed up. */
  | { type: 'ready'; tid: number; version: string }
  | { type: 'started'; id: number }
  /** `truncated`: the compiler said more than the output limit; `compilerOutput` is cut there. */
  | {
      type: 'compiled';
      id: number;
      ok: true;
      compilerOutput: string;
      truncated: boolean;
      program: Uint8Array;
    }
  | { type: 'compiled'; id: number; ok: false; compilerOutput: string; truncated: boolean }
  | { type: 'failed'; id: number; message: string };

/** How a compile ended: compiled (or refused by the compiler), or the compiler itself failed. */
export type CompileAnswer = Extract<CompileWorkerMessage, { type: 'compiled' | 'failed' }>;

/** What a run worker gets; its output goes to `output` (a shared buffer the parent reads). */
export interface RunWorkerData {
  program: Uint8Array;
  stdin: Uint8Array;
  /**
   * Int32 view: [0] output bytes written, [1] the worker's OS thread id, [2] 1 once the output
   * passed its limit, [3] (STOP_INDEX) set by the parent to wake and end a sleeping program;
   * the bytes follow at offset OUTPUT_HEADER_BYTES.
   */
  shared: SharedArrayBuffer;
  outputLimit: number;
  /** The null device, opened once by the parent and shared by every run (never closed). */
  nullFd: number;
}

export const OUTPUT_HEADER_BYTES = 16;
export const STOP_INDEX = 3;

export type RunWorkerMessage =
  | { type: 'exit'; code: number; durationMs: number }
  /** A trap (`unreachable`, out-of-bounds memory…) as the signal a native program would get. */
  | { type: 'trap'; signal: string; message: string }
  | { type: 'truncated' }
  | { type: 'failed'; message: string };

/** This thread's id as the kernel knows it (Linux), for reading its CPU time from /proc. */
export async function currentThreadId(): Promise<number> {
  try {
    const { readlinkSync } = await import('node:fs');
    const link = readlinkSync('/proc/thread-self');
    return Number(link.split('/').pop() ?? 0) || 0;
  } catch {
    return 0;
  }
}
