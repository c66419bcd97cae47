import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { parse, serialize } from 'cookie';

import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS } from './device-cookie.js';
import { SESSION_COOKIE, type SessionService } from './session-service.js';

export function readSessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) {
    return undefined;
  }
  return parse(cookieHeader)[SESSION_COOKIE];
}

export function readDeviceCookie(cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? parse(cookieHeader)[DEVICE_COOKIE] : undefined;
}

/** Sets and clears the session cookie with the same attributes everywhere. */
export interface SessionCookies {
  set(req: Request, res: Response, token: string, expires: Date): void;
  clear(req: Request, res: Response): void;
  /** Sets the device cookie a successful login leaves (sent only to the auth routes). */
  setDevice(req: Request, res: Response, value: string): void;
  /** The Set-Cookie value that clears it, for bare node:http responses (the heartbeat path). */
  clearingHeader(isSecureRequest: boolean): string;
}

/**
 * The session cookie is Secure when the request came over HTTPS, and always when the site's
 * public origin is https: behind a proxy that is not trusted or sends no X-Forwarded-Proto,
 * `req.secure` is false although every browser reaches the site over HTTPS.
 */
export function createSessionCookies(options: {
  publicOrigin: string | undefined;
}): SessionCookies {
  const isPublicOriginHttps = options.publicOrigin?.startsWith('https:') ?? false;
  const cookieOptions = (isSecureRequest: boolean) =>
    ({
      httpOnly: true,
      sameSite: 'lax',
      secure: isPublicOriginHttps || isSecureRequest,
      path: '/',
    }) satisfies CookieOptions;
  const clearing = (isSecureRequest: boolean) =>
    serialize(SESSION_COOKIE, '', { ...cookieOptions(isSecureRequest), expires: new Date(0) });
  const clearingSecure = clearing(true);
  const clearingPlain = clearing(false);
  return {
    set(req, res, token, expires) {
      res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req.secure), expires });
    },
    clear(req, res) {
      res.clearCookie(SESSION_COOKIE, cookieOptions(req.secure));
    },
    setDevice(req, res, value) {
      res.cookie(DEVICE_COOKIE, value, {
        ...cookieOptions(req.secure),
        sameSite: 'strict',
        path: '/api/auth',
        maxAge: DEVICE_COOKIE_MAX_AGE_MS,
      });
    },
    // the same two strings every time: made once (a bogus cookie on every request asks for it)
    clearingHeader: (isSecureRequest) => (isSecureRequest ? clearingSecure : clearingPlain),
  };
}

/** Resolves the session cookie into `req.auth`. Reads only: it never writes the session store. */
export function sessionMiddleware(
  sessions: SessionService,
  cookies: SessionCookies,
): RequestHandler {
  return async (req, res, next) => {
    const token = readSessionToken(req.headers.cookie);
    if (!token) {
      next();
      return;
    }
    const session = await sessions.resolve(token);
    if (session) {
      req.auth = { user: session.user, sessionIdHash: session.idHash, token };
    } else {
      // a stale cookie: forget it so the browser stops sending it
      cookies.clear(req, res);
    }
    next();
  };
}
