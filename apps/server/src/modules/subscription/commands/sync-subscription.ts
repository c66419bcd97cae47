import { type CurrentUser } from '@portfolio/types';
import { type SubscriptionState } from '@portfolio/types/subscription';

import { fromStripeSubscription } from '../subscription-state.js';
import {
  answeredAt,
  call,
  requireBilling,
  requireStripe,
  store,
  type SubscriptionContext,
  toState,
} from '../context.js';

/** Reads the user's subscription from Stripe (right after checkout, before the webhook). */
export async function syncSubscription(
  ctx: SubscriptionContext,
  userId: string,
): Promise<{ role: CurrentUser['role']; subscription: SubscriptionState }> {
  const { stripe } = requireStripe(ctx);
  const billing = await requireBilling(ctx, userId);
  if (billing.stripeSubscriptionId) {
    const subscriptionId = billing.stripeSubscriptionId;
    const subscription = await call('sync', () => stripe.subscriptions.retrieve(subscriptionId));
    await store(ctx, fromStripeSubscription(subscription, answeredAt(subscription)));
  }
  const after = await requireBilling(ctx, userId);
  return { role: after.role, subscription: toState(after, true) };
}
