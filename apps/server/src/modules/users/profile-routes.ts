import { Router } from 'express';

import {
  ChangePasswordRequest,
  MailPreferencesRequest,
  type MessageResponse,
  type Profile,
  UpdateEmailRequest,
} from '@portfolio/types';

import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { requireUser, sessionOf } from '../../access/policies.js';
import type { SessionCookies } from '../auth/index.js';
import type { ProfileService } from './profile-service.js';

/**
 * Wrong current passwords per user: someone holding a session must not be able to guess the
 * password behind it. A right one is given back, so its owner is never held up.
 */
export const CHANGE_PASSWORD_LIMIT: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };

/** The signed-in user's own account, under /user: profile, update-email, change-password. */
export function createProfileRouter(deps: {
  profile: ProfileService;
  cookies: SessionCookies;
  rateLimiter: RateLimiter;
  changePasswordLimit?: RateLimitRule;
}): Router {
  const { profile, cookies, rateLimiter } = deps;
  const changePasswordLimit = deps.changePasswordLimit ?? CHANGE_PASSWORD_LIMIT;
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(requireUser);

  router.get('/profile', async (req, res) => {
    res.json((await profile.getProfile(sessionOf(req).user.id)) satisfies Profile);
  });

  router.post('/update-email', async (req, res) => {
    const { email } = parseInput(UpdateEmailRequest, req.body);
    await profile.updateEmail(sessionOf(req).user.id, email);
    res.json({ message: 'Email updated successfully' } satisfies MessageResponse);
  });

  router.post('/mail-preferences', async (req, res) => {
    const input = parseInput(MailPreferencesRequest, req.body);
    await profile.setSubscriptionMail(sessionOf(req).user.id, input.subscription_mail);
    res.json({ message: 'Email preferences saved' } satisfies MessageResponse);
  });

  router.post('/change-password', async (req, res) => {
    const session = sessionOf(req);
    // a malformed request guesses nothing: it is refused before it counts against the limit
    const input = parseInput(ChangePasswordRequest, req.body);
    // counted before checking, so parallel guesses cannot all pass; given back on success
    const limitKey = `change-password:user:${session.user.id}`;
    await enforceRateLimit(
      rateLimiter,
      limitKey,
      changePasswordLimit,
      'Too many password change attempts. Please try again later.',
    );
    const renewed = await profile.changePassword(
      { userId: session.user.id, idHash: session.sessionIdHash, token: session.token },
      input,
    );
    cookies.set(req, res, renewed.token, renewed.expiresAt);
    await rateLimiter.refund(limitKey);
    res.json({ message: 'Password changed successfully' } satisfies MessageResponse);
  });

  return router;
}
