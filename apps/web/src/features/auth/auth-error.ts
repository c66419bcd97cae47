import { isHttpError } from '../../lib/http';

/** The client-made auth error of spec sections 3 and 8. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  /** 'AUTH_' plus the HTTP status, or 'AUTH_UNKNOWN'. */
  readonly code: string;
  readonly details: string | undefined;
  /** The message the server wrote, if any, so each form can choose its own default. */
  readonly serverMessage: string | undefined;
  /** The API's own error code (`TWO_FACTOR_CHALLENGE_EXPIRED`…), when the server sent one. */
  readonly apiCode: string | undefined;

  constructor(init: {
    code: string;
    message: string;
    details?: string;
    serverMessage?: string;
    apiCode?: string;
  }) {
    super(init.message);
    this.code = init.code;
    this.details = init.details;
    this.serverMessage = init.serverMessage;
    this.apiCode = init.apiCode;
  }
}

export const DEFAULT_AUTH_MESSAGE = 'Authentication failed';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred';

function hasStatus(error: unknown): error is { status: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    typeof error.status === 'number'
  );
}

/**
 * Maps any failure of an auth call to an AuthError: HTTP failures keep the status in the code and
 * the server's message (default 'Authentication failed'); anything else (network failure, bad
 * answer) becomes AUTH_UNKNOWN with 'An unexpected error occurred'.
 */
export function toAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) {
    return error;
  }
  if (isHttpError(error)) {
    return new AuthError({
      code: `AUTH_${error.status}`,
      message: error.serverMessage ?? DEFAULT_AUTH_MESSAGE,
      ...(error.details !== undefined && { details: error.details }),
      ...(error.serverMessage !== undefined && { serverMessage: error.serverMessage }),
      apiCode: error.code,
    });
  }
  if (hasStatus(error)) {
    return new AuthError({ code: `AUTH_${error.status}`, message: DEFAULT_AUTH_MESSAGE });
  }
  return new AuthError({
    code: 'AUTH_UNKNOWN',
    message: UNEXPECTED_ERROR_MESSAGE,
    ...(error instanceof Error && { details: error.message }),
  });
}
