import type { Request, RequestHandler } from 'express';

import { type CurrentUser, type Role, TWO_FACTOR_ERROR_CODES } from '@portfolio/types';

import { forbidden, HttpError, unauthorized } from '../lib/errors.js';

/** Which roles may do what. The one place permissions are decided (HTTP and sockets). */
export const policies = {
  isSignedIn: (user: CurrentUser | undefined): user is CurrentUser => user !== undefined,
  isAdmin: (user: CurrentUser | undefined): boolean => user?.role === 'admin',
  hasRole: (user: CurrentUser | undefined, roles: readonly Role[]): boolean =>
    user !== undefined && roles.includes(user.role),
};

/** The session of a request past requireUser or requireRole (a guest here is a 401 too). */
export function sessionOf(req: Request): NonNullable<Request['auth']> {
  if (!req.auth) {
    throw unauthorized();
  }
  return req.auth;
}

/** 401 for guests. */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.auth) {
    throw unauthorized();
  }
  next();
};

/** 401 for guests, 403 for signed-in users without one of the roles. */
export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) {
      throw unauthorized();
    }
    if (!policies.hasRole(req.auth.user, roles)) {
      throw forbidden();
    }
    next();
  };
}

export const requireAdmin = requireRole('admin');

/**
 * ADMIN_REQUIRE_2FA, decided once where a session is looked up (every request, socket and
 * heartbeat takes it from there): an admin whose account has no two-factor sign-in yet. Such a
 * session exists (the admin is never locked out) but is a plain user's ('user') everywhere: the
 * API refuses it all but the setup (twoFactorSetupGate), and outside the API (game files, the
 * C++ runner, heartbeats, sockets) it has a user's rights. Only the setup's routes read
 * `twoFactorSetupPending` and answer with the account as it is (accountUserOf).
 */
export function isTwoFactorSetupPendingFor(
  session: { user: CurrentUser; hasTwoFactor: boolean },
  isAdminTwoFactorRequired: boolean,
): boolean {
  return isAdminTwoFactorRequired && session.user.role === 'admin' && !session.hasTwoFactor;
}

/** ADMIN_REQUIRE_2FA: this session is an admin's who has not set up two-factor sign-in yet. */
export function isTwoFactorSetupPending(
  auth: { twoFactorSetupPending: boolean } | undefined,
): boolean {
  return auth?.twoFactorSetupPending === true;
}

/** The signed-in account as it is stored: a session pending 2FA setup is still an admin's. */
export function accountUserOf(auth: { user: CurrentUser; twoFactorSetupPending: boolean }) {
  return auth.twoFactorSetupPending ? { ...auth.user, role: 'admin' as const } : auth.user;
}

/**
 * What a session pending 2FA setup may still call (paths under /api): who is signed in, signing
 * in and out, the 2FA setup itself, and reading its own profile (the page the setup is on).
 */
function isAllowedDuringTwoFactorSetup(req: Request): boolean {
  const { method, path } = req;
  if (path === '/me/2fa' || path.startsWith('/me/2fa/')) {
    return true;
  }
  if (method === 'GET') {
    return path === '/auth/current-user' || path === '/user/profile' || path === '/health';
  }
  return (
    method === 'POST' &&
    (path === '/auth/logout' || path === '/auth/login' || path === '/auth/login/2fa')
  );
}

/**
 * 403 TWO_FACTOR_SETUP_REQUIRED for every other call of a session pending 2FA setup. Bearer
 * tokens (the admin API) never set `req.auth`, so they pass untouched.
 */
export function twoFactorSetupGate(): RequestHandler {
  return (req, _res, next) => {
    if (isTwoFactorSetupPending(req.auth) && !isAllowedDuringTwoFactorSetup(req)) {
      throw new HttpError(
        TWO_FACTOR_ERROR_CODES.setupRequired,
        'Set up two-factor sign-in on your profile to continue',
      );
    }
    next();
  };
}
