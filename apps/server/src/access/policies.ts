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
 * ADMIN_REQUIRE_2FA: an admin whose account has no two-factor sign-in yet. Such a
 * session exists (the admin is never locked out) but may only set 2FA up.
 */
export function isTwoFactorSetupPending(
  auth: { user: CurrentUser; hasTwoFactor: boolean } | undefined,
  isAdminTwoFactorRequired: boolean,
): boolean {
  return isAdminTwoFactorRequired && auth?.user.role === 'admin' && !auth.hasTwoFactor;
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
export function twoFactorSetupGate(isAdminTwoFactorRequired: boolean): RequestHandler {
  return (req, _res, next) => {
    if (
      isTwoFactorSetupPending(req.auth, isAdminTwoFactorRequired) &&
      !isAllowedDuringTwoFactorSetup(req)
    ) {
      throw new HttpError(
        403,
        TWO_FACTOR_ERROR_CODES.setupRequired,
        'Set up two-factor sign-in on your profile to continue',
      );
    }
    next();
  };
}
