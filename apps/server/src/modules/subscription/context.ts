import type Stripe from 'stripe';

import { type CurrentUser } from '@portfolio/types';
import { type SubscriptionState } from '@portfolio/types/subscription';

import type { StripeConfig } from '../../config.js';
import { HttpError } from '../../lib/errors.js';
import type { DomainEventBus } from '../../lib/events.js';
import type { BillingRow, SubscriptionRepo } from './repo.js';
import { paymentsNotConfigured, toPaymentError } from './stripe-client.js';
import type { IncomingSubscription } from './subscription-state.js';

/** What a webhook event means for the subscriber's mailbox. */
export type SubscriptionNotice =
  | { kind: 'payment-failed'; eventId: string; customerId: string }
  | { kind: 'started' | 'ended'; eventId: string; userId: string }
  | { kind: 'ending'; eventId: string; userId: string; subscriptionId: string; endsAt: Date };

/** What every subscription command works with. */
export interface SubscriptionContext {
  stripe: Stripe | undefined;
  config: StripeConfig | undefined;
  repo: SubscriptionRepo;
  events: DomainEventBus;
  /** Mail that matters to a subscriber; called once per new event. */
  notify?: ((notice: SubscriptionNotice) => Promise<void>) | undefined;
  /** Bodies of malformed webhook events already logged (Stripe retries them for days). */
  loggedMalformed: Map<string, true>;
}

export function requireStripe(ctx: SubscriptionContext): { stripe: Stripe; config: StripeConfig } {
  if (!ctx.stripe || !ctx.config) {
    throw paymentsNotConfigured();
  }
  return { stripe: ctx.stripe, config: ctx.config };
}

export async function requireBilling(
  ctx: SubscriptionContext,
  userId: string,
): Promise<BillingRow> {
  const row = await ctx.repo.findBilling(userId);
  if (!row) {
    throw new HttpError('UNAUTHORIZED', 'Authentication required');
  }
  return row;
}

/** Tells every process that a user's role changed. */
export function announce(
  ctx: SubscriptionContext,
  userId: string | undefined,
  role: CurrentUser['role'] | undefined,
) {
  if (userId && role) {
    // drops the user's cached sessions in every process: the next request sees the new role
    ctx.events.emit('user:role-changed', { userId, role });
  }
}

/** Stores a state and tells every process when the user's role changed. */
export async function store(ctx: SubscriptionContext, incoming: IncomingSubscription) {
  const result = await ctx.repo.apply(incoming);
  announce(ctx, result.userId, result.roleChangedTo);
  return result;
}

/** One call to Stripe; its failure becomes the payment error of that step. */
export async function call<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toPaymentError(error, step);
  }
}

/** Stripe's clock for an API answer: its Date header (seconds), else ours. */
export function answeredAt(response: { lastResponse?: { headers: Record<string, string> } }): Date {
  const date = response.lastResponse?.headers.date;
  const parsed = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(parsed) ? new Date() : new Date(parsed);
}

export function toState(row: BillingRow, isConfigured: boolean): SubscriptionState {
  return {
    status: row.status,
    startDate: row.startDate?.toISOString() ?? null,
    endDate: row.endDate?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canManage: isConfigured && row.stripeCustomerId !== null,
  };
}
