import { Router } from 'express';

import {
  type MessageResponse,
  TwoFactorDisableRequest,
  TwoFactorEnableRequest,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
} from '@portfolio/types';

import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { isTwoFactorSetupPending, requireUser, sessionOf } from '../../access/policies.js';
import type { TwoFactorService } from './two-factor-service.js';

/**
 * The signed-in user's two-factor sign-in, under /api/me/2fa: status, setup (a new secret),
 * enable (with a code; answers the recovery codes once) and disable (password or a code).
 */
export function createTwoFactorRouter(deps: {
  twoFactor: TwoFactorService;
  rateLimiter: RateLimiter;
  /** Code checks per user (enable, disable): a session cannot guess codes at speed. */
  codeAttemptsPerUser: RateLimitRule;
  isAdminTwoFactorRequired: boolean;
}): Router {
  const { twoFactor, rateLimiter, codeAttemptsPerUser, isAdminTwoFactorRequired } = deps;
  const router = Router();
  router.use(requireUser);
  // answers carry a secret or recovery codes: no browser or proxy may keep a copy
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  // the same counter as the login's code step: wrong codes count, a right one is given back
  const codeKey = (userId: string) => `2fa:user:${userId}`;
  const limitCodeAttempts = (userId: string) =>
    enforceRateLimit(
      rateLimiter,
      codeKey(userId),
      codeAttemptsPerUser,
      'Too many attempts. Please try again later.',
    );

  router.get('/', async (req, res) => {
    const { user } = sessionOf(req);
    // a pending setup's session has a user's role (policies.ts): it is an admin's all the same
    const isRequired =
      isTwoFactorSetupPending(req.auth) || (isAdminTwoFactorRequired && user.role === 'admin');
    res.json((await twoFactor.getStatus(user, isRequired)) satisfies TwoFactorStatus);
  });

  router.post('/setup', async (req, res) => {
    const { user } = sessionOf(req);
    res.json((await twoFactor.beginSetup(user)) satisfies TwoFactorSetupResponse);
  });

  router.post('/enable', async (req, res) => {
    const { user } = sessionOf(req);
    await limitCodeAttempts(user.id);
    const { code } = parseInput(TwoFactorEnableRequest, req.body);
    const recoveryCodes = await twoFactor.enable(user, code);
    await rateLimiter.refund(codeKey(user.id));
    res.json({
      message: 'Two-factor sign-in is on',
      recoveryCodes,
    } satisfies TwoFactorEnableResponse);
  });

  router.post('/disable', async (req, res) => {
    const { user } = sessionOf(req);
    await limitCodeAttempts(user.id);
    const proof = parseInput(TwoFactorDisableRequest, req.body);
    await twoFactor.disable(user, proof);
    await rateLimiter.refund(codeKey(user.id));
    res.json({ message: 'Two-factor sign-in is off' } satisfies MessageResponse);
  });

  return router;
}
