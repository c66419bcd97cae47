import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { parse } from 'cookie';

import { SESSION_COOKIE, type SessionService } from './session-service.js';

export function readSessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) {
    return undefined;
  }
  return parse(cookieHeader)[SESSION_COOKIE];
}

/** Resolves the session cookie into `req.auth`. Reads only: it never writes the session store. */
export function sessionMiddleware(sessions: SessionService): RequestHandler {
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
      clearSessionCookie(req, res);
    }
    next();
  };
}

function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

export function setSessionCookie(req: Request, res: Response, token: string, expires: Date): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req), expires });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}
