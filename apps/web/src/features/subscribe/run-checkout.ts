import type { CurrentUser } from '@portfolio/types';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';

import { isHttpError } from '../../lib/http';
import type { SubscriptionApi } from './subscription-api';

/** Spec section 8's checkout texts. */
export const CHECKOUT_MESSAGES = {
  paymentFailed: 'Payment failed',
  confirmationFailed: 'Payment confirmation failed',
  unexpected: 'Subscription failed. Please try again.',
} as const;

export type CheckoutOutcome =
  { ok: true; user: CurrentUser | null } | { ok: false; message: string };

/**
 * The checkout (spec section 4): the card becomes a payment method, the server starts the
 * subscription, the browser confirms the first payment with Stripe, and the server reads the
 * result back. Every failure is a message for the form; the provider's and the server's own
 * texts are shown as they are.
 */
export async function runCheckout(
  stripe: Pick<Stripe, 'createPaymentMethod' | 'confirmCardPayment'>,
  card: StripeCardElement,
  api: Pick<SubscriptionApi, 'createSubscription' | 'sync'>,
): Promise<CheckoutOutcome> {
  try {
    const method = await stripe.createPaymentMethod({ type: 'card', card });
    if (method.error || !method.paymentMethod) {
      return { ok: false, message: method.error?.message ?? CHECKOUT_MESSAGES.paymentFailed };
    }
    const paymentMethodId = method.paymentMethod.id;
    let clientSecret: string | null;
    try {
      ({ clientSecret } = await api.createSubscription({
        paymentMethodId,
        cancelAtPeriodEnd: false,
      }));
    } catch (error) {
      if (isHttpError(error) && error.serverMessage) {
        return { ok: false, message: error.serverMessage };
      }
      return { ok: false, message: CHECKOUT_MESSAGES.unexpected };
    }
    if (clientSecret) {
      const confirmation = await stripe.confirmCardPayment(clientSecret, {
        payment_method: paymentMethodId,
      });
      if (confirmation.error) {
        return {
          ok: false,
          message: confirmation.error.message ?? CHECKOUT_MESSAGES.paymentFailed,
        };
      }
      if (confirmation.paymentIntent?.status !== 'succeeded') {
        return { ok: false, message: CHECKOUT_MESSAGES.confirmationFailed };
      }
    }
    // paid: the webhook updates the account too, so a failed read-back is not a failure
    const synced = await api.sync().catch(() => null);
    return { ok: true, user: synced?.user ?? null };
  } catch {
    return { ok: false, message: CHECKOUT_MESSAGES.unexpected };
  }
}
