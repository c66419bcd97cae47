import type Stripe from 'stripe';

import { type CurrentUser } from '@portfolio/types';
import {
  type CreateSubscriptionResponse,
  isHeldSubscriptionStatus,
} from '@portfolio/types/subscription';

import { conflict, HttpError } from '../../../lib/errors.js';
import { moduleLogger } from '../../../lib/logger.js';
import type { BillingRow } from '../repo.js';
import { fromStripeSubscription } from '../subscription-state.js';
import {
  answeredAt,
  call,
  requireBilling,
  requireStripe,
  store,
  type SubscriptionContext,
} from '../context.js';

const log = moduleLogger('stripe');

async function ensureCustomer(
  ctx: SubscriptionContext,
  stripe: Stripe,
  billing: BillingRow,
): Promise<string> {
  if (billing.stripeCustomerId) {
    return billing.stripeCustomerId;
  }
  const customer = await call('customer', () =>
    stripe.customers.create(
      {
        name: billing.username,
        ...(billing.email ? { email: billing.email } : {}),
        metadata: { userId: billing.userId },
      },
      // two checkouts at once make one customer
      { idempotencyKey: `customer-${billing.userId}` },
    ),
  );
  const linked = await ctx.repo.linkCustomer(billing.userId, customer.id);
  return linked ?? customer.id;
}

/**
 * A checkout abandoned half-way (a declined first payment) leaves an incomplete subscription:
 * end it before making a new one. The same card again is a repeated submit, which the
 * idempotency key answers with that same subscription, so it is left alone.
 */
async function cancelAbandoned(stripe: Stripe, billing: BillingRow, paymentMethodId: string) {
  const subscriptionId = billing.stripeSubscriptionId;
  if (billing.status !== 'incomplete' || !subscriptionId) {
    return;
  }
  try {
    const abandoned = await stripe.subscriptions.retrieve(subscriptionId);
    const method = abandoned.default_payment_method;
    const methodId = typeof method === 'string' ? method : method?.id;
    if (abandoned.status === 'incomplete' && methodId !== paymentMethodId) {
      await stripe.subscriptions.cancel(subscriptionId);
    }
  } catch (error) {
    // it may have expired meanwhile; the new checkout goes on either way
    log.warn({ err: error }, 'could not cancel an incomplete subscription');
  }
}

/** Starts a subscription; the browser confirms the first payment with the client secret. */
export async function createSubscription(
  ctx: SubscriptionContext,
  user: CurrentUser,
  input: { paymentMethodId: string; cancelAtPeriodEnd: boolean },
): Promise<CreateSubscriptionResponse> {
  const { stripe, config } = requireStripe(ctx);
  const billing = await requireBilling(ctx, user.id);
  if (isHeldSubscriptionStatus(billing.status)) {
    throw conflict('You already have a subscription. Manage it from your profile.');
  }
  const customerId = await ensureCustomer(ctx, stripe, billing);
  await call('attach', () =>
    stripe.paymentMethods.attach(
      input.paymentMethodId,
      { customer: customerId },
      { idempotencyKey: `attach-${input.paymentMethodId}-${customerId}` },
    ),
  );
  await cancelAbandoned(stripe, billing, input.paymentMethodId);
  const subscription = await call('subscription', () =>
    stripe.subscriptions.create(
      {
        customer: customerId,
        items: [{ price: config.priceId }],
        default_payment_method: input.paymentMethodId,
        cancel_at_period_end: input.cancelAtPeriodEnd,
        payment_behavior: 'default_incomplete',
        payment_settings: {
          payment_method_types: ['card'],
          save_default_payment_method: 'on_subscription',
        },
        metadata: { userId: user.id },
        // since API 2025-03-31 the first payment's secret is on the invoice, not a PaymentIntent
        expand: ['latest_invoice.confirmation_secret'],
      },
      // a double submit of the same card makes one subscription
      {
        idempotencyKey: `subscription-${user.id}-${input.paymentMethodId}-${input.cancelAtPeriodEnd}`,
      },
    ),
  );
  await store(ctx, fromStripeSubscription(subscription, answeredAt(subscription)));
  const invoice = subscription.latest_invoice;
  const clientSecret =
    invoice && typeof invoice === 'object'
      ? (invoice.confirmation_secret?.client_secret ?? null)
      : null;
  if (clientSecret === null && subscription.status === 'incomplete') {
    log.error('an incomplete subscription came without a confirmation secret');
    throw new HttpError(
      'PAYMENT_PROVIDER_ERROR',
      'The payment provider refused the request. Please try again later.',
    );
  }
  return { clientSecret, status: subscription.status };
}
