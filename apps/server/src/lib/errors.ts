import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';

import { type ApiError, WHOLE_MESSAGES } from '@portfolio/types';

/** An error a client can act on: HTTP status, stable code and readable message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: string) =>
  new HttpError(400, 'BAD_REQUEST', message, details);
export const unauthorized = (message = 'Authentication required') =>
  new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do that') =>
  new HttpError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new HttpError(409, 'CONFLICT', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, 'RATE_LIMITED', message, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

/**
 * The first zod issue as `field: message`, the way forms show it; a message the spec words as a
 * whole sentence ('Please enter a valid email address') is shown as it is.
 */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) {
    return 'Invalid request';
  }
  const field = issue.path.join('.');
  return field && !WHOLE_MESSAGES.has(issue.message) ? `${field}: ${issue.message}` : issue.message;
}

function isPgError(error: unknown): error is { code: string; constraint?: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(error.code)
  );
}

/** Finds a Postgres error behind drizzle's wrapper (it keeps the driver error as `cause`). */
function findPgError(error: unknown): { code: string; constraint?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (isPgError(current)) {
      return current;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** The constraint a unique violation (23505) hit, found behind any driver wrapper; else undefined. */
export function uniqueViolationConstraint(error: unknown): string | undefined {
  const pgError = findPgError(error);
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) {
    return error;
  }
  if (error instanceof ZodError) {
    return badRequest(describeZodError(error));
  }
  // body-parser errors carry a status and a type
  if (
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    'status' in error &&
    typeof error.status === 'number'
  ) {
    if (error.type === 'entity.parse.failed') {
      return badRequest('Request body is not valid JSON');
    }
    if (error.type === 'entity.too.large') {
      return new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    }
    if (error.status >= 400 && error.status < 500) {
      return new HttpError(
        error.status,
        'BAD_REQUEST',
        error instanceof Error ? error.message : 'Bad request',
      );
    }
  }
  const pgError = findPgError(error);
  if (pgError?.code === '23505') {
    return conflict('That value is already taken');
  }
  if (pgError?.code === '22P02') {
    return badRequest('Invalid identifier');
  }
  return undefined;
}

export function errorBody(error: HttpError): ApiError {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** The one error middleware: known errors become their status, the rest a logged 500. */
export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const httpError = toHttpError(error);
  if (httpError) {
    res.set(httpError.headers).status(httpError.status).json(errorBody(httpError));
    return;
  }
  console.error(`[http] ${req.method} ${req.originalUrl} failed`, error);
  res
    .status(500)
    .json(
      errorBody(
        new HttpError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'),
      ),
    );
};
