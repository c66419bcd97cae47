import { RunCodeResponse } from '@portfolio/types';
import { ZodError } from 'zod';

import { http, isHttpError } from '../../lib/http';

/** Compiles and runs C++ source on the server's sandboxed runner (`POST /run-code`). */
export function runCode(code: string): Promise<RunCodeResponse> {
  return http.post('/run-code', { code }, RunCodeResponse);
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

/**
 * The note shown under a program's output: its exit code when it failed. The server writes its
 * own notices (time limit, signal, truncation) into the output, and a compile error, which never
 * ran, has no exit code.
 */
export function describeRunResult(result: RunCodeResponse): string[] {
  if (result.exitCode !== null && result.exitCode !== 0) {
    return [`The program exited with code ${result.exitCode}.`];
  }
  return [];
}
