import express, { Router, type Request } from 'express';

import {
  CreateSubscriptionRequest,
  type CreateSubscriptionResponse,
  type PaymentsConfig,
  type PortalSessionResponse,
  type SubscriptionState,
  type SubscriptionSyncResponse,
} from '@portfolio/types/subscription';

import { rateLimitAddress } from '../../lib/client-address.js';
import { unauthorized } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { requireUser } from '../../access/policies.js';
import type { SubscriptionService } from './service.js';

export interface SubscriptionRateLimits {
  /** Checkouts per client address: stolen-card testers try many cards from one place. */
  checkoutPerIp: RateLimitRule;
  /** Checkouts per account (a few mistyped or declined cards are normal). */
  checkoutPerUser: RateLimitRule;
  /** Portal sessions and syncs per account: each is a Stripe API call. */
  stripeCallsPerUser: RateLimitRule;
  /** Webhook deliveries per address: Stripe sends bursts, never floods. */
  webhookPerIp: RateLimitRule;
}

export const DEFAULT_SUBSCRIPTION_RATE_LIMITS = {
  checkoutPerIp: { limit: 20, windowMs: 60 * 60 * 1000 },
  checkoutPerUser: { limit: 10, windowMs: 60 * 60 * 1000 },
  stripeCallsPerUser: { limit: 30, windowMs: 10 * 60 * 1000 },
  webhookPerIp: { limit: 600, windowMs: 60 * 1000 },
} satisfies SubscriptionRateLimits;

/** Stripe event payloads are a few KB; a subscription with many items stays far below this. */
export const WEBHOOK_BODY_LIMIT = '512kb';

function signedInUser(req: Request) {
  if (!req.auth) {
    throw unauthorized();
  }
  return req.auth.user;
}

/** The site's origin for links back from Stripe: PUBLIC_ORIGIN, else the origin of the request. */
function siteOrigin(req: Request, publicOrigin: string | undefined): string {
  return publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** The subscription API under /api (JSON, same-origin, session cookie). */
export function createSubscriptionRouter(deps: {
  subscriptions: SubscriptionService;
  rateLimiter: RateLimiter;
  limits: SubscriptionRateLimits;
  publicOrigin: string | undefined;
}): Router {
  const { subscriptions, rateLimiter, limits } = deps;
  const router = Router();

  const limit = (key: string, rule: RateLimitRule, message: string) =>
    enforceRateLimit(rateLimiter, key, rule, message);
  const limitStripeCalls = (userId: string) =>
    limit(
      `stripe:user:${userId}`,
      limits.stripeCallsPerUser,
      'Too many requests. Please try again in a few minutes.',
    );

  router.get('/subscription/config', (_req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .json(subscriptions.getPaymentsConfig() satisfies PaymentsConfig);
  });

  router.get('/subscription', requireUser, async (req, res) => {
    const state = await subscriptions.getState(signedInUser(req).id);
    res.set('Cache-Control', 'no-store').json(state satisfies SubscriptionState);
  });

  router.post('/create-subscription', async (req, res) => {
    await limit(
      `checkout:ip:${rateLimitAddress(req.ip)}`,
      limits.checkoutPerIp,
      'Too many payment attempts from this address. Please try again later.',
    );
    const user = signedInUser(req);
    await limit(
      `checkout:user:${user.id}`,
      limits.checkoutPerUser,
      'Too many payment attempts. Please try again later.',
    );
    const input = parseInput(CreateSubscriptionRequest, req.body);
    const created = await subscriptions.createSubscription(user, input);
    res.set('Cache-Control', 'no-store').json(created satisfies CreateSubscriptionResponse);
  });

  router.post('/subscription/sync', requireUser, async (req, res) => {
    const user = signedInUser(req);
    await limitStripeCalls(user.id);
    const { role, subscription } = await subscriptions.sync(user.id);
    res
      .set('Cache-Control', 'no-store')
      .json({ user: { ...user, role }, subscription } satisfies SubscriptionSyncResponse);
  });

  router.post('/subscription/portal', requireUser, async (req, res) => {
    const user = signedInUser(req);
    await limitStripeCalls(user.id);
    const url = await subscriptions.createPortalSession(
      user.id,
      `${siteOrigin(req, deps.publicOrigin)}/profile`,
    );
    res.set('Cache-Control', 'no-store').json({ url } satisfies PortalSessionResponse);
  });

  return router;
}

/**
 * POST /api/stripe/webhook. Mounted ahead of the JSON parser and the same-origin guard: Stripe
 * posts from its own servers, and the signature is computed over the exact bytes it sent.
 */
export function createStripeWebhookRouter(deps: {
  subscriptions: SubscriptionService;
  rateLimiter: RateLimiter;
  limits: SubscriptionRateLimits;
}): Router {
  const router = Router();
  router.post(
    '/webhook',
    async (req, _res, next) => {
      await enforceRateLimit(
        deps.rateLimiter,
        `stripe-webhook:ip:${rateLimitAddress(req.ip)}`,
        deps.limits.webhookPerIp,
        'Too many webhook deliveries.',
      );
      next();
    },
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { isDuplicate } = await deps.subscriptions.handleWebhook(
        body,
        req.get('stripe-signature'),
      );
      res.json({ received: true, duplicate: isDuplicate });
    },
  );
  return router;
}
