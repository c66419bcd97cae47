import Stripe from 'stripe';

import type { StripeConfig } from '../../config.js';
import { HttpError } from '../../lib/errors.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('stripe');

/**
 * The Stripe SDK for the configured account. `STRIPE_API_URL` points it elsewhere (stripe-mock,
 * or a test's fake API through the SDK's own host/port/protocol options).
 */
export function createStripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const protocol = api?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'gamedev-portfolio' },
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (protocol === 'http' ? 80 : 443)),
          protocol,
        }
      : {}),
  });
}

/** Whether constructEvent refused the signature (rather than the payload behind it). */
export function isSignatureError(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeSignatureVerificationError;
}

export const paymentsNotConfigured = () =>
  new HttpError('PAYMENTS_NOT_CONFIGURED', 'Payments are not configured');

/**
 * A Stripe failure as the client should see it. A declined card (402) and a refused payment
 * method (400) carry Stripe's own message, which is written for the customer. Anything else
 * (keys, prices, outages) is this site's problem: logged, and answered without Stripe's text.
 */
export function toPaymentError(error: unknown, step: string): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) {
    return error;
  }
  if (error instanceof Stripe.errors.StripeCardError) {
    return new HttpError('PAYMENT_DECLINED', error.message);
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && step === 'attach') {
    return new HttpError('PAYMENT_METHOD_REFUSED', error.message);
  }
  log.error({ type: error.type, reason: error.message }, `${step} failed`);
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAPIError
  ) {
    return new HttpError(
      'PAYMENT_PROVIDER_UNAVAILABLE',
      'The payment provider could not be reached. Please try again in a moment.',
    );
  }
  return new HttpError(
    'PAYMENT_PROVIDER_ERROR',
    'The payment provider refused the request. Please try again later.',
  );
}
