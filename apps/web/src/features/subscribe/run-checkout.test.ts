import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { describe, expect, it, vi } from 'vitest';

import { HttpError } from '../../lib/http';
import { runCheckout } from './run-checkout';

const card = {} as StripeCardElement;
const user = { id: 'u1', username: 'ann', role: 'subscriber' as const };

function fakeStripe(
  overrides: Partial<Record<'createPaymentMethod' | 'confirmCardPayment', unknown>> = {},
) {
  return {
    createPaymentMethod: vi.fn(() => Promise.resolve({ paymentMethod: { id: 'pm_1' } })),
    confirmCardPayment: vi.fn(() => Promise.resolve({ paymentIntent: { status: 'succeeded' } })),
    ...overrides,
  } as unknown as Pick<Stripe, 'createPaymentMethod' | 'confirmCardPayment'>;
}

function fakeApi(overrides: Partial<Record<'createSubscription' | 'sync', unknown>> = {}) {
  return {
    createSubscription: vi.fn(() =>
      Promise.resolve({ clientSecret: 'pi_1_secret_2', status: 'incomplete' }),
    ),
    sync: vi.fn(() => Promise.resolve({ user, subscription: {} })),
    ...overrides,
  } as unknown as Parameters<typeof runCheckout>[2];
}

describe('runCheckout', () => {
  it('creates the payment method, the subscription, confirms, and reads back the user', async () => {
    const stripe = fakeStripe();
    const api = fakeApi();
    expect(await runCheckout(stripe, card, api)).toEqual({ ok: true, user });
    expect(api.createSubscription).toHaveBeenCalledWith({
      paymentMethodId: 'pm_1',
      cancelAtPeriodEnd: false,
    });
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_2', {
      payment_method: 'pm_1',
    });
  });

  it("shows the provider's message when the card is refused, else 'Payment failed'", async () => {
    const refused = fakeStripe({
      createPaymentMethod: () =>
        Promise.resolve({ error: { message: 'Your card number is incomplete.' } }),
    });
    expect(await runCheckout(refused, card, fakeApi())).toEqual({
      ok: false,
      message: 'Your card number is incomplete.',
    });
    const silent = fakeStripe({ createPaymentMethod: () => Promise.resolve({ error: {} }) });
    expect(await runCheckout(silent, card, fakeApi())).toEqual({
      ok: false,
      message: 'Payment failed',
    });
    const declined = fakeStripe({
      confirmCardPayment: () => Promise.resolve({ error: { message: 'Your card was declined.' } }),
    });
    expect(await runCheckout(declined, card, fakeApi())).toEqual({
      ok: false,
      message: 'Your card was declined.',
    });
  });

  it("shows the server's error text as it is", async () => {
    const api = fakeApi({
      createSubscription: () =>
        Promise.reject(
          new HttpError({
            status: 409,
            code: 'CONFLICT',
            message: 'You already have a subscription.',
          }),
        ),
    });
    expect(await runCheckout(fakeStripe(), card, api)).toEqual({
      ok: false,
      message: 'You already have a subscription.',
    });
  });

  it("says 'Payment confirmation failed' when the payment did not succeed", async () => {
    const stripe = fakeStripe({
      confirmCardPayment: () => Promise.resolve({ paymentIntent: { status: 'requires_action' } }),
    });
    expect(await runCheckout(stripe, card, fakeApi())).toEqual({
      ok: false,
      message: 'Payment confirmation failed',
    });
  });

  it("says 'Subscription failed. Please try again.' for anything unexpected", async () => {
    const offline = fakeApi({ createSubscription: () => Promise.reject(new TypeError('fetch')) });
    expect(await runCheckout(fakeStripe(), card, offline)).toEqual({
      ok: false,
      message: 'Subscription failed. Please try again.',
    });
    const broken = fakeStripe({ createPaymentMethod: () => Promise.reject(new Error('boom')) });
    expect(await runCheckout(broken, card, fakeApi())).toEqual({
      ok: false,
      message: 'Subscription failed. Please try again.',
    });
  });

  it('counts a paid checkout as done even if reading it back fails (the webhook follows)', async () => {
    const api = fakeApi({ sync: () => Promise.reject(new Error('offline')) });
    expect(await runCheckout(fakeStripe(), card, api)).toEqual({ ok: true, user: null });
  });
});
