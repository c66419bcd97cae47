import {
  type CompilerDiagnostic,
  type CppStandard,
  type OptimizationLevel,
  type RunCodeLimits,
  type RunCodeRequest,
  RunCodeInfo,
  RunCodeResponse,
} from '@portfolio/types/run-code';
import { ZodError } from 'zod';

import { http, isHttpError } from '../../lib/http';

/** Compiles and runs C++ source on the server's sandboxed runner (`POST /run-code`). */
export function runCode(request: RunCodeRequest): Promise<RunCodeResponse> {
  return http.post('/run-code', request, RunCodeResponse);
}

let info: Promise<RunCodeInfo> | undefined;

/**
 * What a run may use and choose (`GET /api/run-code/info`), asked once per page load and shared
 * by every code box; a failed answer is asked again next time.
 */
export function getRunCodeInfo(): Promise<RunCodeInfo> {
  info ??= http.get('/api/run-code/info', RunCodeInfo).catch((error: unknown) => {
    info = undefined;
    throw error;
  });
  return info;
}

/** Forgets the shared answer of `getRunCodeInfo` (tests start each page afresh). */
export function forgetRunCodeInfo(): void {
  info = undefined;
}

/**
 * The detail after 'Error executing code.' (spec section 8): the server's own message (the
 * 503 when no sandbox is available, the 429 when the queue is full, the 413 for a large source),
 * or what went wrong on the way.
 */
export function describeRunError(error: unknown): string {
  if (isHttpError(error)) {
    return error.serverMessage ?? `The server answered with status ${error.status}.`;
  }
  if (error instanceof ZodError) {
    return "The server's answer could not be read.";
  }
  if (error instanceof TypeError) {
    return 'Could not reach the server. Check your connection and try again.';
  }
  return error instanceof Error && error.message ? error.message : 'Unknown error.';
}

/** A duration as people read it: milliseconds under a second, else seconds. */
export function formatDuration(ms: number): string {
  if (Math.round(ms) < 1000) {
    return `${Math.round(ms)} ms`;
  }
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * How a run ended, in one sentence for the line under the output: a failed compile (with its
 * count of errors and warnings), a time limit, a signal or the exit code, then the time the
 * program took and whether the answer came from the cache.
 */
export function describeRunResult(result: RunCodeResponse): string {
  const cached = result.cached ? ' (cached result)' : '';
  if (!result.compiled) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
    const counts = [
      errors > 0 ? plural(errors, 'error') : '',
      warnings > 0 ? plural(warnings, 'warning') : '',
    ].filter(Boolean);
    return `Compilation failed${counts.length > 0 ? ` with ${counts.join(' and ')}` : ''}; the program did not run.${cached}`;
  }
  const took = `after ${formatDuration(result.durationMs)}`;
  let ending: string;
  if (result.timedOut) {
    ending = `Stopped at the time limit${result.signal ? ` (${result.signal})` : ''}`;
  } else if (result.signal) {
    ending = `Killed by signal ${result.signal}`;
  } else if (result.exitCode !== null) {
    ending = `Exited with code ${result.exitCode}`;
  } else {
    ending = 'Ended without an exit code';
  }
  const truncated = result.truncated ? ' The output was cut at the limit.' : '';
  return `${ending} ${took}.${truncated}${cached}`;
}

/** The limits every run gets, as shown beside Run. */
export function describeLimits(limits: RunCodeLimits): string {
  const seconds = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
  const memory = limits.memoryMb >= 1024 ? `${limits.memoryMb / 1024} GB` : `${limits.memoryMb} MB`;
  return `Limits: ${seconds(limits.cpuSeconds)} CPU, ${memory} memory, ${limits.outputKb} KB output`;
}

/** One compiler message as the output's list reads it (and a screen reader announces it). */
export function describeDiagnostic(diagnostic: CompilerDiagnostic): string {
  return `Line ${diagnostic.line}, column ${diagnostic.column}: ${diagnostic.severity}: ${diagnostic.message}`;
}

/** `c++20` → `C++20`, as the standard selector shows it. */
export function standardLabel(standard: CppStandard): string {
  return standard.replace('c++', 'C++');
}

/** `O2` → `-O2`, the flag people know. */
export function optimizationLabel(level: OptimizationLevel): string {
  return `-${level}`;
}
