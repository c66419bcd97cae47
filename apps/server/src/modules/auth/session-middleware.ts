import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { serialize } from 'cookie';

import { isLoopbackHost } from '../../lib/security.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS } from './device-cookie.js';
import { type ResolvedSession, SESSION_COOKIE, type SessionService } from './session-service.js';

/**
 * The `__Host-` prefix: browsers accept such a cookie only with `Secure`, `Path=/` and no
 * `Domain`, set by this very host. A page on a sibling host (`games.example.com`) can then
 * neither plant nor shadow the site's cookies, as it can a plain `sid` with
 * `Domain=example.com; Path=/api`.
 */
const HOST_PREFIX = '__Host-';

/** At most this many cookies of one name are looked at (a browser sends one or two). */
const MAX_VALUES_PER_NAME = 4;

/** The site's cookie names, and whether they carry the `__Host-` prefix. */
export interface SiteCookieNames {
  session: string;
  device: string;
  isHostPrefixed: boolean;
}

/**
 * The site's cookie names for a public origin. `__Host-` names need `Secure`, which browsers
 * accept over https and on http://localhost, 127.x.x.x and [::1] only: the prefix is used there
 * (and when PUBLIC_ORIGIN is unset, which serves loopback names only). A plain-http site on any
 * other host name gets plain names without `Secure` (browsers would drop the cookie), and with
 * them no protection from cookies planted by sibling hosts: serve such a site over https.
 */
export function siteCookieNames(publicOrigin: string | undefined): SiteCookieNames {
  const isHostPrefixed =
    publicOrigin === undefined ||
    publicOrigin.startsWith('https:') ||
    isLoopbackHost(new URL(publicOrigin).host);
  const prefix = isHostPrefixed ? HOST_PREFIX : '';
  return {
    session: prefix + SESSION_COOKIE,
    device: prefix + DEVICE_COOKIE,
    isHostPrefixed,
  };
}

/**
 * Every value a Cookie header gives `name`, in order, without duplicates. A browser sends one
 * cookie per name, path and domain, so a planted one (another path or domain) comes beside the
 * site's own, often first: reading only the first value would let it win.
 */
export function readCookieValues(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) {
    return [];
  }
  const values: string[] = [];
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) {
      continue;
    }
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1);
    }
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // not percent-encoded after all: keep it as sent
      }
    }
    if (value !== '' && !values.includes(value)) {
      values.push(value);
      if (values.length === MAX_VALUES_PER_NAME) {
        break;
      }
    }
  }
  return values;
}

/** What a request's session cookies come to. */
export type CookieSession =
  | { session: ResolvedSession; token: string }
  /**
   * `isStale`: it carried a session cookie that names no session (clear it). `isConflict`: two
   * cookies named two live sessions, so one was planted (clear the partitioned copy: the site
   * never sets one).
   */
  | { session: null; isStale: boolean; isConflict?: boolean };

/**
 * The session a Cookie header names. Every value of the session cookie is tried, so an unknown
 * one beside it (planted by another page, or left over) never hides the real session, and the
 * real one is never cleared because of it. Two cookies naming two different live sessions are
 * answered as a guest: one of them was planted, and which cannot be told (session fixation).
 */
export function resolveSessionCookie(
  sessions: SessionService,
  names: SiteCookieNames,
  cookieHeader: string | undefined,
): Promise<CookieSession> {
  const tokens = readCookieValues(cookieHeader, names.session);
  const [only] = tokens;
  if (only === undefined) {
    return NO_SESSION_COOKIE;
  }
  // the usual case, on every heartbeat: no loop and no extra async step
  if (tokens.length === 1) {
    return sessions
      .resolve(only)
      .then((session) => (session ? { session, token: only } : STALE_SESSION_COOKIE));
  }
  return resolveAmong(sessions, tokens);
}

/**
 * resolveSessionCookie's answer when memory has it (no cookie, or one value whose session is
 * cached or known to be gone); undefined when resolveSessionCookie must run. No promise: the
 * heartbeat's path.
 */
export function resolveSessionCookieNow(
  sessions: SessionService,
  names: SiteCookieNames,
  cookieHeader: string | undefined,
): CookieSession | undefined {
  const tokens = readCookieValues(cookieHeader, names.session);
  const [only] = tokens;
  if (only === undefined) {
    return NO_SESSION;
  }
  if (tokens.length > 1) {
    return undefined;
  }
  const session = sessions.resolveNow(only);
  return session === undefined
    ? undefined
    : session === null
      ? STALE_SESSION_COOKIE
      : { session, token: only };
}

const NO_SESSION: CookieSession = Object.freeze({ session: null, isStale: false });
const NO_SESSION_COOKIE: Promise<CookieSession> = Promise.resolve(NO_SESSION);
const STALE_SESSION_COOKIE: CookieSession = Object.freeze({ session: null, isStale: true });
const CONFLICTING_SESSION_COOKIES: CookieSession = Object.freeze({
  session: null,
  isStale: false,
  isConflict: true,
});

/** Two or more values of the session cookie: see resolveSessionCookie. */
async function resolveAmong(sessions: SessionService, tokens: string[]): Promise<CookieSession> {
  let found: { session: ResolvedSession; token: string } | undefined;
  for (const token of tokens) {
    const session = await sessions.resolve(token);
    if (!session) {
      continue;
    }
    if (found && found.session.idHash !== session.idHash) {
      return CONFLICTING_SESSION_COOKIES;
    }
    found ??= { session, token };
  }
  return found ?? { session: null, isStale: true };
}

/** Sets and clears the site's cookies with the same names and attributes everywhere. */
export interface SessionCookies {
  names: SiteCookieNames;
  /** Sets the session cookie, clearing any partitioned copy first (signing in ends a lockout). */
  set(req: Request, res: Response, token: string, expires: Date): void;
  /** Clears the session cookie, its partitioned copy too. */
  clear(req: Request, res: Response): void;
  /** Clears only a partitioned copy, which the site never sets: the real cookie stays. */
  clearPlanted(req: Request, res: Response): void;
  /** Sets the device cookie a successful login leaves. */
  setDevice(req: Request, res: Response, value: string): void;
  /** The device cookie's values on a request (any may be a valid one of the user logging in). */
  deviceValues(req: Request): string[];
  /** The Set-Cookie values that clear it, for bare node:http responses (the heartbeat path). */
  clearingHeader(isSecureRequest: boolean): string[];
  /** The Set-Cookie values that clear only a partitioned copy, for bare node:http responses. */
  plantedClearingHeader(isSecureRequest: boolean): string[];
}

/**
 * The site's cookies are `HttpOnly`, `SameSite`, `Path=/`, host-only and, under their `__Host-`
 * names, always `Secure`. Under plain names (a plain-http site on a non-loopback host) they are
 * Secure when the request came over HTTPS, or the public origin is https.
 *
 * A page in a frame (a game, another site) may set a `Partitioned` cookie of the site's name: the
 * browser keeps it apart from the site's own, under the top-level site, and sends both, and a
 * Set-Cookie without `Partitioned` never replaces it. Two live sessions are a guest (see
 * resolveSessionCookie), so a planted copy would keep its player a guest for its whole max-age,
 * signing in again or not. The site never sets a partitioned cookie: signing in, signing out, a
 * stale cookie and two live sessions all expire the partitioned copy as well.
 */
export function createSessionCookies(options: {
  publicOrigin: string | undefined;
}): SessionCookies {
  const names = siteCookieNames(options.publicOrigin);
  const isPublicOriginHttps = options.publicOrigin?.startsWith('https:') ?? false;
  const cookieOptions = (isSecureRequest: boolean) =>
    ({
      httpOnly: true,
      sameSite: 'lax',
      secure: names.isHostPrefixed || isPublicOriginHttps || isSecureRequest,
      path: '/',
    }) satisfies CookieOptions;
  const clearing = (isSecureRequest: boolean, partitioned: boolean) =>
    serialize(names.session, '', {
      ...cookieOptions(isSecureRequest),
      partitioned,
      expires: new Date(0),
    });
  // browsers keep a partitioned cookie only when Secure: without it there is none to clear
  const plantedClearing = (isSecureRequest: boolean) =>
    cookieOptions(isSecureRequest).secure ? [clearing(isSecureRequest, true)] : [];
  // the same strings every time: made once (a bogus cookie on every request asks for them)
  const plantedSecure = plantedClearing(true);
  const plantedPlain = plantedClearing(false);
  const clearingSecure = [clearing(true, false), ...plantedSecure];
  const clearingPlain = [clearing(false, false), ...plantedPlain];
  const appendPlantedClearing = (req: Request, res: Response) => {
    for (const line of req.secure ? plantedSecure : plantedPlain) {
      res.append('Set-Cookie', line);
    }
  };
  return {
    names,
    set(req, res, token, expires) {
      appendPlantedClearing(req, res);
      res.cookie(names.session, token, { ...cookieOptions(req.secure), expires });
    },
    clear(req, res) {
      res.clearCookie(names.session, cookieOptions(req.secure));
      appendPlantedClearing(req, res);
    },
    clearPlanted: appendPlantedClearing,
    setDevice(req, res, value) {
      // Path=/ as `__Host-` requires (it was /api/auth): a few bytes on every request
      res.cookie(names.device, value, {
        ...cookieOptions(req.secure),
        sameSite: 'strict',
        maxAge: DEVICE_COOKIE_MAX_AGE_MS,
      });
    },
    deviceValues: (req) => readCookieValues(req.headers.cookie, names.device),
    clearingHeader: (isSecureRequest) => (isSecureRequest ? clearingSecure : clearingPlain),
    plantedClearingHeader: (isSecureRequest) => (isSecureRequest ? plantedSecure : plantedPlain),
  };
}

/** Resolves the session cookie into `req.auth`. Reads only: it never writes the session store. */
export function sessionMiddleware(
  sessions: SessionService,
  cookies: SessionCookies,
): RequestHandler {
  return async (req, res, next) => {
    const resolved = await resolveSessionCookie(sessions, cookies.names, req.headers.cookie);
    if (resolved.session) {
      req.auth = {
        user: resolved.session.user,
        hasTwoFactor: resolved.session.hasTwoFactor,
        twoFactorSetupPending: resolved.session.twoFactorSetupPending,
        sessionIdHash: resolved.session.idHash,
        token: resolved.token,
      };
    } else if (resolved.isStale) {
      // a stale cookie: forget it so the browser stops sending it
      cookies.clear(req, res);
    } else if (resolved.isConflict) {
      // this answer is a guest's (which of the two is real cannot be told), the next one not:
      // the planted copy is partitioned (a __Host- name allows no other path or domain)
      cookies.clearPlanted(req, res);
    }
    next();
  };
}
