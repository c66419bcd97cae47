import type { RunCodeResponse } from '@portfolio/types/run-code';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { HttpError } from '../../lib/http';
import {
  describeDiagnostic,
  describeLimits,
  describeRunError,
  describeRunResult,
  formatDuration,
  optimizationLabel,
  standardLabel,
} from './run-code-api';

describe('describeRunError', () => {
  it("shows the server's message for 4xx and 5xx answers", () => {
    const unavailable = new HttpError({
      status: 503,
      code: 'RUNNER_UNAVAILABLE',
      message: 'Running code is not available on this server.',
    });
    expect(describeRunError(unavailable)).toBe('Running code is not available on this server.');
    const busy = new HttpError({
      status: 429,
      code: 'QUEUE_FULL',
      message: 'Too many programs are running. Try again in a moment.',
    });
    expect(describeRunError(busy)).toBe('Too many programs are running. Try again in a moment.');
  });

  it('names the status when the answer had no error body', () => {
    expect(describeRunError(new HttpError({ status: 502, code: 'HTTP_502' }))).toBe(
      'The server answered with status 502.',
    );
  });

  it('explains network failures and unreadable answers', () => {
    expect(describeRunError(new TypeError('Failed to fetch'))).toMatch(
      /Could not reach the server/,
    );
    const parsed = z.object({ output: z.string() }).safeParse({});
    expect(parsed.success).toBe(false);
    expect(describeRunError(parsed.error)).toBe("The server's answer could not be read.");
  });
});

describe('describeRunResult', () => {
  const base: RunCodeResponse = {
    output: '',
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: false,
    compiled: true,
    diagnostics: [],
    durationMs: 12.4,
    cached: false,
    backend: 'native',
  };

  it('tells the exit code and the time the program took', () => {
    expect(describeRunResult(base)).toBe('Exited with code 0 after 12 ms.');
    expect(describeRunResult({ ...base, exitCode: 3, durationMs: 1534 })).toBe(
      'Exited with code 3 after 1.53 s.',
    );
  });

  it('says when the answer came from the cache', () => {
    expect(describeRunResult({ ...base, cached: true })).toBe(
      'Exited with code 0 after 12 ms. (cached result)',
    );
  });

  it('names the signal, the time limit and a cut output', () => {
    expect(describeRunResult({ ...base, exitCode: null, signal: 'SIGSEGV' })).toBe(
      'Killed by signal SIGSEGV after 12 ms.',
    );
    expect(
      describeRunResult({
        ...base,
        exitCode: null,
        signal: 'SIGKILL',
        timedOut: true,
        durationMs: 2000,
      }),
    ).toBe('Stopped at the time limit (SIGKILL) after 2.00 s.');
    expect(describeRunResult({ ...base, truncated: true })).toBe(
      'Exited with code 0 after 12 ms. The output was cut at the limit.',
    );
  });

  it('counts the errors and warnings of a failed compile, which never ran', () => {
    const failed: RunCodeResponse = {
      ...base,
      compiled: false,
      exitCode: null,
      durationMs: 0,
      diagnostics: [
        { severity: 'error', line: 3, column: 5, message: 'a' },
        { severity: 'error', line: 4, column: 5, message: 'b' },
        { severity: 'warning', line: 2, column: 1, message: 'c' },
        { severity: 'note', line: 1, column: 1, message: 'd' },
      ],
    };
    expect(describeRunResult(failed)).toBe(
      'Compilation failed with 2 errors and 1 warning; the program did not run.',
    );
    expect(describeRunResult({ ...failed, diagnostics: [], cached: true })).toBe(
      'Compilation failed; the program did not run. (cached result)',
    );
  });
});

describe('describeLimits and the labels', () => {
  it('shows CPU time, memory and output as people read them', () => {
    expect(
      describeLimits({
        cpuSeconds: 2,
        wallSeconds: 5,
        memoryMb: 256,
        outputKb: 64,
        compileSeconds: 10,
      }),
    ).toBe('Limits: 2 s CPU, 256 MB memory, 64 KB output');
    expect(
      describeLimits({
        cpuSeconds: 1.5,
        wallSeconds: 5,
        memoryMb: 2048,
        outputKb: 128,
        compileSeconds: 10,
      }),
    ).toBe('Limits: 1.5 s CPU, 2 GB memory, 128 KB output');
  });

  it('formats durations, standards and optimisation levels', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999.6)).toBe('1.00 s');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(standardLabel('c++20')).toBe('C++20');
    expect(optimizationLabel('Os')).toBe('-Os');
  });

  it('reads a compiler message with its place', () => {
    expect(
      describeDiagnostic({
        severity: 'error',
        line: 3,
        column: 13,
        message: "'greeting' was not declared in this scope",
      }),
    ).toBe("Line 3, column 13: error: 'greeting' was not declared in this scope");
  });
});
