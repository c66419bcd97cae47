import { type IncomingMessage, STATUS_CODES } from 'node:http';

import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';

import { type ApiError, SESSION_REQUIRED_CODE, WHOLE_MESSAGES } from '@portfolio/types';
import { API_ERRORS, type ApiErrorCode, httpStatusCode } from '@portfolio/types/errors';
import { moduleLogger } from './logger.js';
import { StorageUnavailableError } from './storage/object-storage.js';

const log = moduleLogger('http');

interface HttpErrorOptions {
  /** What this case says; the catalogue's default message when left out. */
  message?: string;
  details?: string;
  headers?: Record<string, string | string[]>;
}

/**
 * An error a client can act on: a code of the catalogue (packages/types/src/errors.ts), the one
 * status that code always has, and a readable message (the catalogue's unless given).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly details: string | undefined;
  readonly headers: Record<string, string | string[]>;

  constructor(
    readonly code: ApiErrorCode,
    options: string | HttpErrorOptions = {},
  ) {
    const {
      message,
      details,
      headers = {},
    } = typeof options === 'string' ? { message: options } : options;
    super(message ?? API_ERRORS[code].message);
    this.name = 'HttpError';
    this.status = API_ERRORS[code].status;
    this.details = details;
    this.headers = headers;
  }
}

/** `new HttpError(code, options)`, for expressions that read better as a call. */
export const httpError = (code: ApiErrorCode, options?: string | HttpErrorOptions) =>
  new HttpError(code, options);

export const badRequest = (message: string, details?: string) =>
  new HttpError('BAD_REQUEST', { message, details });
/** 401 for a request without a valid session (the web app then shows the visitor as a guest). */
export const unauthorized = (message?: string) => new HttpError(SESSION_REQUIRED_CODE, message);
export const forbidden = (message?: string) => new HttpError('FORBIDDEN', message);
export const notFound = (message?: string) => new HttpError('NOT_FOUND', message);
export const conflict = (message: string) => new HttpError('CONFLICT', message);
/** The one answer for an unknown or malformed user id (admin user pages, reset links). */
export const userNotFound = () => notFound('No such user');
/** The one answer for a game id that is unknown (or, to players, unpublished or malformed). */
export function gameNotFound(gameId: string): HttpError {
  // cut: the id comes from the path and is echoed back
  return new HttpError('GAME_NOT_FOUND', `No game with the id '${gameId.slice(0, 64)}'`);
}
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError('RATE_LIMITED', {
    message,
    headers: { 'Retry-After': String(retryAfterSeconds) },
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

/** The error and the errors behind it (`cause`, as drivers and drizzle wrap them), `depth` at most. */
function* causes(error: unknown, depth: number): Generator<unknown> {
  let current: unknown = error;
  for (let level = 0; level < depth && current; level++) {
    yield current;
    current = current instanceof Error ? current.cause : undefined;
  }
}

/** Finds a Postgres error behind drizzle's wrapper (it keeps the driver error as `cause`). */
function findPgError(error: unknown): { code: string; constraint?: string } | undefined {
  for (const current of causes(error, 4)) {
    if (isPgError(current)) {
      return current;
    }
  }
  return undefined;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/;

/**
 * Whether the database could not be reached or went away mid-query (a restart, a failover):
 * connection errors, class 08 (connection exception) and 57P01–57P03 (shutdown, cannot connect
 * now). Answered 503 with Retry-After: the request may simply be made again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of causes(error, 5)) {
    if (typeof current === 'object' && current !== null) {
      const code = 'code' in current && typeof current.code === 'string' ? current.code : '';
      if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) {
        return true;
      }
      if (current instanceof Error && UNREACHABLE_MESSAGES.test(current.message)) {
        return true;
      }
    }
  }
  return false;
}

/** The constraint a unique violation (23505) hit, found behind any driver wrapper; else undefined. */
export function uniqueViolationConstraint(error: unknown): string | undefined {
  const pgError = findPgError(error);
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

/** The errors body-parser raises, by their `type`, as a client reads them. */
const BODY_PARSER_ERRORS: Readonly<Record<string, () => HttpError>> = {
  'entity.parse.failed': () => badRequest('Request body is not valid JSON'),
  'entity.too.large': () => new HttpError('PAYLOAD_TOO_LARGE'),
  'encoding.unsupported': () =>
    new HttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body is compressed in a way this server does not accept.',
    ),
  'charset.unsupported': () =>
    new HttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body uses a character set this server does not accept.',
    ),
  'request.size.invalid': () =>
    badRequest('The request body is not as long as its Content-Length header says.'),
};

/** The 4xx status an error from other middleware carries (http-errors style), if any. */
function clientErrorStatus(error: object): number | undefined {
  const status =
    'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * A client error raised outside our code (body-parser, the router, zlib behind body-parser): its
 * status is kept, its message (often an internal fragment such as 'incorrect header check') is not.
 */
function toClientError(error: object, status: number): HttpError {
  const type = 'type' in error && typeof error.type === 'string' ? error.type : undefined;
  const known = type ? BODY_PARSER_ERRORS[type] : undefined;
  if (known) {
    return known();
  }
  if (error instanceof URIError) {
    return badRequest('The address contains an invalid percent-encoding.');
  }
  // zlib's codes: Z_DATA_ERROR, Z_BUF_ERROR, ...
  if ('code' in error && typeof error.code === 'string' && error.code.startsWith('Z_')) {
    return badRequest('The request body could not be decompressed.');
  }
  const reason = STATUS_CODES[status];
  // a status the catalogue does not name (none that Node knows) is answered as a 400
  return new HttpError(
    httpStatusCode(status) ?? 'BAD_REQUEST',
    `The request was refused with status ${status}${reason ? ` (${reason})` : ''}.`,
  );
}

/** The HttpError a thrown error stands for, or undefined for a real failure (a 500). */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) {
    return error;
  }
  if (error instanceof ZodError) {
    return badRequest(describeZodError(error));
  }
  if (typeof error === 'object' && error !== null) {
    const status = clientErrorStatus(error);
    if (status !== undefined) {
      return toClientError(error, status);
    }
  }
  // before the database's check: a bucket's refused connection is one of its causes
  if (error instanceof StorageUnavailableError) {
    return new HttpError('STORAGE_UNAVAILABLE', { headers: { 'Retry-After': '5' } });
  }
  if (isDatabaseUnavailable(error)) {
    return new HttpError('SERVICE_UNAVAILABLE', { headers: { 'Retry-After': '5' } });
  }
  const pgError = findPgError(error);
  if (pgError?.code === '23505') {
    return conflict('That value is already taken');
  }
  // validation should stop these first; this keeps a gap from becoming a 500
  if (pgError?.code === '22021' || pgError?.code === '22P05') {
    return badRequest('The request contains characters that cannot be stored.');
  }
  if (pgError?.code === '22P02') {
    return badRequest('The request contains a value in an invalid format.');
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

/**
 * Whether the client went away before its request arrived (cut off, aborted, reset): not an
 * error of ours and nothing to answer. Nobody would read the response, and logging each one would
 * let anyone flood the logs.
 */
export function isClientGone(error: unknown, req?: IncomingMessage): boolean {
  if (typeof error === 'object' && error !== null) {
    if ('type' in error && error.type === 'request.aborted') {
      return true;
    }
  }
  return req !== undefined && (req.destroyed || req.socket.destroyed) && !req.complete;
}

/**
 * The last handler: a request no route served (any method, TRACE and PROPFIND included) gets the
 * API's 404 body instead of Express's HTML page; a HEAD gets the same headers and no body.
 */
export const unmatchedRoute: RequestHandler = (req) => {
  throw notFound(`No route for ${req.method} ${req.path}`);
};

/** The one error middleware: known errors become their status, the rest a logged 500. */
export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (isClientGone(error, req)) {
    // no response, no log: the connection is closed (or closing) already
    req.socket.destroy();
    return;
  }
  if (res.headersSent) {
    next(error);
    return;
  }
  const httpError = toHttpError(error);
  if (httpError) {
    if (error instanceof StorageUnavailableError) {
      log.warn({ reason: error.message }, `${req.method} ${req.path}: storage unavailable`);
    }
    res.set(httpError.headers).status(httpError.status).json(errorBody(httpError));
    return;
  }
  // the path only: a query may carry a token
  log.error({ err: error }, `${req.method} ${req.path} failed`);
  res.status(500).json(errorBody(new HttpError('INTERNAL')));
};
