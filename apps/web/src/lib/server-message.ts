import { isHttpError } from './http';

/**
 * The server's message of a failed call, else the fallback. A module of its own: only lazy pages
 * use it, and the home page's bundle (which holds http.ts) stays as it is.
 */
export function serverMessageOr(error: unknown, fallback: string): string {
  return isHttpError(error) && error.serverMessage ? error.serverMessage : fallback;
}
