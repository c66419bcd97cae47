import type Stripe from 'stripe';

import { type CurrentUser } from '@portfolio/types';
import {
  type CreateSubscriptionResponse,
  type PaymentsConfig,
  type SubscriptionState,
} from '@portfolio/types/subscription';

import type { StripeConfig } from '../../config.js';
import type { DomainEventBus } from '../../lib/events.js';
import { createPortalSession } from './commands/create-portal-session.js';
import { createSubscription } from './commands/create-subscription.js';
import { handleWebhook } from './commands/handle-webhook.js';
import { syncSubscription } from './commands/sync-subscription.js';
import {
  requireBilling,
  type SubscriptionContext,
  type SubscriptionNotice,
  toState,
} from './context.js';
import type { SubscriptionRepo } from './repo.js';

export type { SubscriptionNotice } from './context.js';

export interface SubscriptionService {
  getPaymentsConfig(): PaymentsConfig;
  getState(userId: string): Promise<SubscriptionState>;
  /** Starts a subscription; the browser confirms the first payment with the client secret. */
  createSubscription(
    user: CurrentUser,
    input: { paymentMethodId: string; cancelAtPeriodEnd: boolean },
  ): Promise<CreateSubscriptionResponse>;
  /** Reads the user's subscription from Stripe (right after checkout, before the webhook). */
  sync(userId: string): Promise<{ role: CurrentUser['role']; subscription: SubscriptionState }>;
  /** A Stripe customer portal session (cancel, change card) that returns to `returnUrl`. */
  createPortalSession(userId: string, returnUrl: string): Promise<string>;
  /** Verifies and handles one webhook delivery; `isDuplicate` for an event already handled. */
  handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ isDuplicate: boolean }>;
}

/** Assembles the subscription commands (one file each under commands/) over one context. */
export function createSubscriptionService(deps: {
  stripe: Stripe | undefined;
  config: StripeConfig | undefined;
  repo: SubscriptionRepo;
  events: DomainEventBus;
  /** Mail that matters to a subscriber; called once per new event. */
  notify?: (notice: SubscriptionNotice) => Promise<void>;
}): SubscriptionService {
  const ctx: SubscriptionContext = { ...deps, loggedMalformed: new Map() };
  return {
    getPaymentsConfig: () => ({ publishableKey: deps.config?.publishableKey ?? null }),
    getState: async (userId) =>
      toState(await requireBilling(ctx, userId), deps.config !== undefined),
    createSubscription: (user, input) => createSubscription(ctx, user, input),
    sync: (userId) => syncSubscription(ctx, userId),
    createPortalSession: (userId, returnUrl) => createPortalSession(ctx, userId, returnUrl),
    handleWebhook: (rawBody, signature) => handleWebhook(ctx, rawBody, signature),
  };
}
