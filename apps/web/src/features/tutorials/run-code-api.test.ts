import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { HttpError } from '../../lib/http';
import { describeRunError, describeRunResult } from './run-code-api';

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
  const base = { output: '', exitCode: 0, timedOut: false, truncated: false };

  it('says nothing about a clean exit', () => {
    expect(describeRunResult(base)).toEqual([]);
  });

  it('tells a failing exit code only: the server writes its own notices into the output', () => {
    expect(describeRunResult({ ...base, exitCode: 3, truncated: true })).toEqual([
      'The program exited with code 3.',
    ]);
    expect(describeRunResult({ ...base, exitCode: null, timedOut: true })).toEqual([]);
    // a compile error never ran
    expect(describeRunResult({ ...base, exitCode: null })).toEqual([]);
  });
});
