import type { Request, RequestHandler } from 'express';

import type { CurrentUser, Role } from '@portfolio/types';

import { forbidden, unauthorized } from '../../lib/errors.js';

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
