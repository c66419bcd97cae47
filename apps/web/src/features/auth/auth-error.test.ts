import { describe, expect, it } from 'vitest';

import { HttpError } from '../../lib/http';
import { AuthError, toAuthError } from './auth-error';

describe('toAuthError', () => {
  it('uses AUTH_ plus the status and the server message', () => {
    const error = toAuthError(
      new HttpError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'Invalid credentials' }),
    );
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe('AUTH_401');
    expect(error.message).toBe('Invalid credentials');
    expect(error.serverMessage).toBe('Invalid credentials');
  });

  it('keeps the server details', () => {
    const error = toAuthError(
      new HttpError({ status: 429, code: 'RATE_LIMITED', message: 'Slow down', details: 'retry' }),
    );
    expect(error.code).toBe('AUTH_429');
    expect(error.details).toBe('retry');
  });

  it("defaults to 'Authentication failed' when the server sent no message", () => {
    const error = toAuthError(new HttpError({ status: 500, code: 'HTTP_500' }));
    expect(error.code).toBe('AUTH_500');
    expect(error.message).toBe('Authentication failed');
    expect(error.serverMessage).toBeUndefined();
  });

  it('gives AUTH_UNKNOWN with the unexpected-error message for non-HTTP failures', () => {
    const error = toAuthError(new TypeError('Failed to fetch'));
    expect(error.code).toBe('AUTH_UNKNOWN');
    expect(error.message).toBe('An unexpected error occurred');
    expect(error.details).toBe('Failed to fetch');
  });

  it('gives AUTH_UNKNOWN for thrown non-errors', () => {
    expect(toAuthError('boom').code).toBe('AUTH_UNKNOWN');
  });
});
