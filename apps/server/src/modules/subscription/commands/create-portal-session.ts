import { conflict } from '../../../lib/errors.js';
import { call, requireBilling, requireStripe, type SubscriptionContext } from '../context.js';

/** A Stripe customer portal session (cancel, change card) that returns to `returnUrl`. */
export async function createPortalSession(
  ctx: SubscriptionContext,
  userId: string,
  returnUrl: string,
): Promise<string> {
  const { stripe } = requireStripe(ctx);
  const billing = await requireBilling(ctx, userId);
  if (!billing.stripeCustomerId) {
    throw conflict('There is no subscription to manage yet.');
  }
  const customer = billing.stripeCustomerId;
  const session = await call('portal', () =>
    stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }),
  );
  return session.url;
}
