import { Router } from 'express';
import { z } from 'zod';

import {
  type AdminResetLinkResponse,
  ConfirmEmailRequest,
  EMAIL_CONFIRMED_MESSAGE,
  FORGOT_PASSWORD_MESSAGE,
  ForgotPasswordRequest,
  type MessageResponse,
  PASSWORD_RESET_MESSAGE,
  ResetPasswordRequest,
  UserId,
} from '@portfolio/types';

import { rateLimitAddress } from '../../lib/client-address.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { userNotFound } from '../../lib/errors.js';
import type { EmailConfirmation } from '../users/index.js';
import type { PasswordResetService } from './password-reset.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import type { SessionCookies } from './session-middleware.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('password-reset');

export interface PasswordResetLimits {
  /** Forgot-password requests per client address. */
  forgotPerIp: RateLimitRule;
  /** Forgot-password requests per username or email asked about (429 for any name alike). */
  forgotPerLogin: RateLimitRule;
  /** Reset attempts (token + new password) per client address. */
  resetPerIp: RateLimitRule;
}

export const DEFAULT_PASSWORD_RESET_LIMITS = {
  forgotPerIp: { limit: 10, windowMs: 15 * 60_000 },
  forgotPerLogin: { limit: 5, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 20, windowMs: 15 * 60_000 },
} satisfies PasswordResetLimits;

const TOO_MANY = 'Too many password reset requests. Please try again later.';

/**
 * The links mail carries: POST /auth/forgot-password, POST /auth/reset-password,
 * POST /auth/confirm-email, and the admin's
 * POST /users/:userId/reset-link.
 */
export function createPasswordResetRouter(deps: {
  passwordReset: PasswordResetService;
  confirmation: EmailConfirmation;
  cookies: SessionCookies;
  rateLimiter: RateLimiter;
  limits?: PasswordResetLimits;
}): Router {
  const { passwordReset, cookies, rateLimiter } = deps;
  const limits = deps.limits ?? DEFAULT_PASSWORD_RESET_LIMITS;
  const router = Router();
  router.use(
    ['/auth/forgot-password', '/auth/reset-password', '/auth/confirm-email', '/users'],
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
  );

  router.post('/auth/forgot-password', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `forgot:ip:${rateLimitAddress(req.ip)}`,
      limits.forgotPerIp,
      TOO_MANY,
    );
    const { login } = parseInput(ForgotPasswordRequest, req.body);
    await enforceRateLimit(
      rateLimiter,
      `forgot:login:${login.toLowerCase()}`,
      limits.forgotPerLogin,
      TOO_MANY,
    );
    // answered before the account is even looked up: the same words and the same time for
    // every name, whether or not it has an account (the work goes on after the answer)
    res.status(202).json({ message: FORGOT_PASSWORD_MESSAGE } satisfies MessageResponse);
    passwordReset
      .requestReset(login)
      .catch((error: unknown) => log.error({ err: error }, 'request failed'));
  });

  router.post('/auth/reset-password', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `reset:ip:${rateLimitAddress(req.ip)}`,
      limits.resetPerIp,
      TOO_MANY,
    );
    const { token, password } = parseInput(ResetPasswordRequest, req.body);
    await passwordReset.resetPassword(token, password);
    // every session of the account has ended, this browser's too if it had one
    cookies.clear(req, res);
    res.json({ message: PASSWORD_RESET_MESSAGE } satisfies MessageResponse);
  });

  // the link mailed to a new address; no session needed (it may open in another browser)
  router.post('/auth/confirm-email', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `confirm:ip:${rateLimitAddress(req.ip)}`,
      limits.resetPerIp,
      'Too many attempts. Please try again later.',
    );
    const { token } = parseInput(ConfirmEmailRequest, req.body);
    await deps.confirmation.confirm(token);
    res.json({ message: EMAIL_CONFIRMED_MESSAGE } satisfies MessageResponse);
  });

  router.post('/users/:userId/reset-link', requireAdmin, async (req, res) => {
    const params = z.object({ userId: UserId }).safeParse(req.params);
    if (!params.success) {
      throw userNotFound();
    }
    const admin = sessionOf(req).user;
    const link = await passwordReset.createAdminResetLink(
      { id: admin.id, username: admin.username },
      params.data.userId,
    );
    res.status(201).json({
      url: link.url,
      expires_at: link.expiresAt.toISOString(),
    } satisfies AdminResetLinkResponse);
  });

  return router;
}
