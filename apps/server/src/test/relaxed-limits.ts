import type { RateLimitRule } from '../lib/rate-limit.js';
import type { PasswordResetLimits } from '../modules/auth/password-reset-routes.js';
import type { AuthRateLimits } from '../modules/auth/routes.js';
import type { SubscriptionRateLimits } from '../modules/subscription/routes.js';

/**
 * A limit no test or benchmark reaches. Their clients all come from 127.0.0.1, so the real
 * per-address limits would cut them off; tests of a limit pass their own rule.
 */
export const RELAXED_LIMIT: RateLimitRule = { limit: 1_000_000, windowMs: 60_000 };

export const RELAXED_AUTH_LIMITS: AuthRateLimits = {
  loginPerIp: RELAXED_LIMIT,
  loginPerUsername: RELAXED_LIMIT,
  registerPerIp: RELAXED_LIMIT,
  registerPerUsername: RELAXED_LIMIT,
  twoFactorPerUser: RELAXED_LIMIT,
};

export const RELAXED_SUBSCRIPTION_LIMITS: SubscriptionRateLimits = {
  checkoutPerIp: RELAXED_LIMIT,
  checkoutPerUser: RELAXED_LIMIT,
  stripeCallsPerUser: RELAXED_LIMIT,
  webhookPerIp: RELAXED_LIMIT,
};

export const RELAXED_PASSWORD_RESET_LIMITS: PasswordResetLimits = {
  forgotPerIp: RELAXED_LIMIT,
  forgotPerLogin: RELAXED_LIMIT,
  resetPerIp: RELAXED_LIMIT,
};
