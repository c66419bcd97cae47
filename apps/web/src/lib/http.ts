import { ApiError } from '@portfolio/types';
import type { z } from 'zod';

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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions<T> {
  body?: unknown;
  /** Validates the JSON answer; without it the body is ignored. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
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

async function toHttpError(response: Response): Promise<HttpError> {
  const parsed = ApiError.safeParse(await readJson(response));
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new HttpError({ status: response.status, code, message, details });
  }
  return new HttpError({ status: response.status, code: `HTTP_${response.status}` });
}

/**
 * Sends one JSON request with the session cookie. No default time-out: pass a signal to abort.
 * Non-2xx answers reject with an HttpError; answers that fail the schema reject with a ZodError.
 */
export async function request<T = void>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: DEFAULT_HEADERS };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) {
    init.signal = options.signal;
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    throw await toHttpError(response);
  }
  if (!options.schema) {
    // Drain the body so the connection can be reused.
    await response.text();
    return undefined as T;
  }
  return options.schema.parse(await readJson(response));
}

export const http = {
  get<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    return request('GET', path, signal ? { schema, signal } : { schema });
  },
  post<T = void>(path: string, body?: unknown, schema?: z.ZodType<T>): Promise<T> {
    return request<T>('POST', path, schema ? { body, schema } : { body });
  },
};
