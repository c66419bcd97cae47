import { isApiError, SESSION_REQUIRED_CODE } from '@portfolio/types/client';
import type { ApiErrorCode } from '@portfolio/types/errors';

/** A non-2xx answer from the API, with the fields of the server's error body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly code: string;
  readonly details: string | undefined;
  /** The message the server wrote, when its body had one (callers pick their own defaults). */
  readonly serverMessage: string | undefined;

  constructor(init: { status: number; code: string; message?: string; details?: string }) {
    super(init.message ?? `Request failed with status ${init.status}`);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.serverMessage = init.message;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/**
 * Whether an error is the API's answer with this code of the catalogue: the web app branches on
 * codes, never on message texts or bare statuses.
 */
export function hasErrorCode(error: unknown, code: ApiErrorCode): error is HttpError {
  return isHttpError(error) && error.code === code;
}

/**
 * Whether an error says the request had no valid session: the server's 401 for a missing or
 * ended session, or a bare 401 without the API's error body. A 401 with another code (a wrong
 * current password) is about the request, not the session.
 */
export function isSessionEnded(error: unknown): boolean {
  return (
    isHttpError(error) &&
    error.status === 401 &&
    (error.code === SESSION_REQUIRED_CODE || error.code === 'HTTP_401')
  );
}

let sessionEndedListener: (() => void) | undefined;
let forbiddenListener: (() => void) | undefined;

/**
 * Registers the one listener told whenever an answer says the session has ended (the auth store,
 * which then shows the visitor as a guest). Returns a function that removes it.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListener = listener;
  return () => {
    if (sessionEndedListener === listener) {
      sessionEndedListener = undefined;
    }
  };
}

/**
 * Registers the one listener told whenever an answer is a 403: the user's role may have changed
 * on the server (an admin demoted), so the auth store asks who is signed in again.
 */
export function onForbidden(listener: () => void): () => void {
  forbiddenListener = listener;
  return () => {
    if (forbiddenListener === listener) {
      forbiddenListener = undefined;
    }
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What validates an answer: any zod schema, or a zod-free guard (`guardedSchema`) in code the
 * entry chunk loads, so zod itself loads with the pages that need it.
 */
export interface Schema<T> {
  parse(data: unknown): T;
}

interface RequestOptions<T> {
  body?: unknown;
  /** Validates the JSON answer; without it the body is ignored. */
  schema?: Schema<T>;
  signal?: AbortSignal;
  /** Lets the request outlive the page (sent while it unloads). */
  keepalive?: boolean;
}

const DEFAULT_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The HttpError for a non-2xx answer with this (parsed JSON, or undefined) body. */
export function httpErrorOf(status: number, body: unknown): HttpError {
  if (isApiError(body)) {
    const { code, message, details } = body.error;
    return new HttpError({ status, code, message, details });
  }
  return new HttpError({ status, code: `HTTP_${status}` });
}

async function toHttpError(response: Response): Promise<HttpError> {
  return httpErrorOf(response.status, await readJson(response));
}

/**
 * Tells the listeners what a failed answer means for the session (an ended session, a 403 that
 * may be a role change). Requests sent without this module's `request` (an upload through
 * XMLHttpRequest, for its progress events) call it too.
 */
export function reportHttpError(error: HttpError): void {
  if (isSessionEnded(error)) {
    sessionEndedListener?.();
  } else if (error.status === 403) {
    forbiddenListener?.();
  }
}

/**
 * Sends one JSON request with the session cookie and answers the body with the response headers.
 * No default time-out: pass a signal to abort. Non-2xx answers reject with an HttpError (a 401
 * for an ended session also tells the `onSessionEnded` listener); answers that fail the schema
 * reject with a ZodError.
 */
export async function requestWithHeaders<T = void>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<{ data: T; headers: Headers }> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: DEFAULT_HEADERS };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) {
    init.signal = options.signal;
  }
  if (options.keepalive) {
    init.keepalive = true;
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    const error = await toHttpError(response);
    reportHttpError(error);
    throw error;
  }
  if (!options.schema) {
    // Drain the body so the connection can be reused.
    await response.text();
    return { data: undefined as T, headers: response.headers };
  }
  return { data: options.schema.parse(await readJson(response)), headers: response.headers };
}

/** Sends one JSON request and answers its body; see `requestWithHeaders`. */
export async function request<T = void>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  return (await requestWithHeaders(method, path, options)).data;
}

export const http = {
  get<T>(path: string, schema: Schema<T>, signal?: AbortSignal): Promise<T> {
    return request('GET', path, signal ? { schema, signal } : { schema });
  },
  post<T = void>(path: string, body?: unknown, schema?: Schema<T>): Promise<T> {
    return request<T>('POST', path, schema ? { body, schema } : { body });
  },
  delete<T = void>(path: string, schema?: Schema<T>): Promise<T> {
    return request<T>('DELETE', path, schema ? { schema } : {});
  },
};
