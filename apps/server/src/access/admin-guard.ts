import type { RequestHandler, Response } from 'express';

import { forbidden, HttpError, unauthorized } from '../lib/errors.js';
import type { Actor } from './audit.js';
import { policies } from './policies.js';

/** How an API token becomes the admin it was made for (api-tokens.ts; tests may stub it). */
export interface ApiTokenAuthenticator {
  authenticate(token: string): Promise<NonNullable<Actor> | undefined>;
}

/** The admin a request acts as (set by gameAdminAuth). */
export function actorOf(res: Response): NonNullable<Actor> {
  const actor: unknown = res.locals.gameAdmin;
  if (
    typeof actor === 'object' &&
    actor !== null &&
    'id' in actor &&
    'username' in actor &&
    typeof actor.id === 'string' &&
    typeof actor.username === 'string'
  ) {
    return { id: actor.id, username: actor.username };
  }
  throw unauthorized();
}

/**
 * An admin session, or a bearer token of an admin: a present Authorization header decides
 * (a wrong token is a 401 even with an admin's cookie).
 */
export function gameAdminAuth(host: { tokens: ApiTokenAuthenticator }): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (header !== undefined) {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
      const actor = token ? await host.tokens.authenticate(token) : undefined;
      if (!actor) {
        throw new HttpError(
          'INVALID_TOKEN',
          'The API token is not valid, was deleted, or its admin is no longer an admin.',
        );
      }
      res.locals.gameAdmin = actor;
      next();
      return;
    }
    if (!req.auth) {
      throw unauthorized();
    }
    if (!policies.isAdmin(req.auth.user)) {
      throw forbidden();
    }
    res.locals.gameAdmin = { id: req.auth.user.id, username: req.auth.user.username };
    next();
  };
}
