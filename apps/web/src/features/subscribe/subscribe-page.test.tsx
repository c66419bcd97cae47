import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';

/** A stand-in for Stripe.js: the card element is a plain input, payments answer as told. */
const stripeStub = vi.hoisted(() => ({
  confirmCardPayment: vi.fn(),
  createPaymentMethod: vi.fn(),
  loadStripe: vi.fn(),
}));

vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripeStub.loadStripe }));
vi.mock('@stripe/react-stripe-js', async () => {
  const { useEffect } = await import('react');
  return {
    Elements: ({ children }: { children: ReactNode }) => children,
    CardElement: ({
      onReady,
      options,
    }: {
      onReady?: () => void;
      options?: { disabled?: boolean };
    }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <input aria-label="Card number" disabled={options?.disabled ?? false} />;
    },
    useStripe: () => stripeStub,
    useElements: () => ({ getElement: () => ({}) }),
  };
});

const CONFIG = {
  'GET /api/subscription/config': () => jsonResponse({ publishableKey: 'pk_test_1' }),
};
const NO_SUBSCRIPTION = {
  'GET /api/subscription': () =>
    jsonResponse({
      status: null,
      startDate: null,
      endDate: null,
      cancelAtPeriodEnd: false,
      canManage: false,
    }),
};

beforeAll(async () => {
  // transform the page and the form before the first test's clock starts, and allow a busy
  // machine (CI shares two cores with the server suite) more than the default 5 s per query
  configure({ asyncUtilTimeout: 15_000 });
  await Promise.all([import('./subscribe-page'), import('./checkout-form')]);
}, 60_000);

beforeEach(() => {
  Object.values(stripeStub).forEach((mock) => mock.mockReset());
  stripeStub.loadStripe.mockResolvedValue(stripeStub);
  stripeStub.createPaymentMethod.mockResolvedValue({ paymentMethod: { id: 'pm_1' } });
  stripeStub.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
});

describe('/subscribe', () => {
  it('shows the price, the benefits naming the subscriber games, and asks a guest to log in', async () => {
    stubApi(CONFIG);
    renderApp('/subscribe');
    expect(await screen.findByRole('link', { name: 'log in' })).toHaveAttribute(
      'href',
      '/login?redirect=/subscribe',
    );
    expect(screen.getByText('$10.00 / quarter')).toBeInTheDocument();
    expect(screen.getByText('Billed every 3 months - Cancel anytime')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Secure Checkout' })).toBeInTheDocument();
    expect(screen.getByText('Pong')).toBeInTheDocument();
    expect(stripeStub.loadStripe).not.toHaveBeenCalled();
  });

  it('says plainly when payments are not configured', async () => {
    stubApi({
      ...signedInAs('ann', 'user'),
      ...NO_SUBSCRIPTION,
      'GET /api/subscription/config': () => jsonResponse({ publishableKey: null }),
    });
    renderApp('/subscribe');
    expect(
      await screen.findByText(
        'Payments are not configured on this site yet, so subscriptions cannot be bought right now.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /subscribe/i })).not.toBeInTheDocument();
  });

  it('tells a subscriber they are subscribed even where payments are not configured', async () => {
    stubApi({
      ...signedInAs('sam', 'subscriber'),
      ...NO_SUBSCRIPTION,
      'GET /api/subscription/config': () => jsonResponse({ publishableKey: null }),
    });
    renderApp('/subscribe');
    expect(await screen.findByText(/You are subscribed/)).toBeInTheDocument();
    expect(screen.queryByText(/Payments are not configured/)).not.toBeInTheDocument();
  });

  it('tells a subscriber they are subscribed, with the status and a way to manage it', async () => {
    stubApi({
      ...signedInAs('sam', 'subscriber'),
      ...CONFIG,
      'GET /api/subscription': () =>
        jsonResponse({
          status: 'active',
          startDate: '2026-01-01T00:00:00.000Z',
          endDate: '2026-04-01T00:00:00.000Z',
          cancelAtPeriodEnd: false,
          canManage: true,
        }),
      'POST /api/subscription/portal': () =>
        jsonResponse({ url: 'https://billing.stripe.com/p/session/test_1' }),
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderApp('/subscribe');
    expect(await screen.findByText(/You are subscribed/)).toBeInTheDocument();
    expect(screen.getByText('Active')).toHaveClass('badge--status-green');
    expect(screen.getByText('Next Payment Date')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_1'),
    );
  });

  it('subscribes: Processing... with the form disabled, then /games with the Sub badge', async () => {
    let answerCreate: (response: Response) => void = () => undefined;
    const { calls } = stubApi({
      ...signedInAs('ann', 'user'),
      ...CONFIG,
      ...NO_SUBSCRIPTION,
      'POST /api/create-subscription': () =>
        new Promise<Response>((resolve) => {
          answerCreate = resolve;
        }),
      'POST /api/subscription/sync': () =>
        jsonResponse({
          user: { id: 'id-ann', username: 'ann', role: 'subscriber' },
          subscription: {
            status: 'active',
            startDate: null,
            endDate: null,
            cancelAtPeriodEnd: false,
            canManage: true,
          },
        }),
    });
    const { router } = renderApp('/subscribe');
    const submit = await screen.findByRole('button', { name: 'Subscribe for $10.00' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByLabelText('Card number')).toBeDisabled();
    await act(async () => {
      answerCreate(jsonResponse({ clientSecret: 'pi_1_secret_2', status: 'incomplete' }));
      await Promise.resolve();
    });
    await waitFor(() => expect(router.location.pathname).toBe('/games'));
    expect(screen.getByText('Sub')).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/create-subscription')?.body).toEqual({
      paymentMethodId: 'pm_1',
      cancelAtPeriodEnd: false,
    });
  });

  it("shows the provider's decline message and gives the form back", async () => {
    stripeStub.confirmCardPayment.mockResolvedValue({
      error: { type: 'card_error', message: 'Your card was declined.' },
    });
    stubApi({
      ...signedInAs('ann', 'user'),
      ...CONFIG,
      ...NO_SUBSCRIPTION,
      'POST /api/create-subscription': () =>
        jsonResponse({ clientSecret: 'pi_1_secret_2', status: 'incomplete' }),
    });
    renderApp('/subscribe');
    const submit = await screen.findByRole('button', { name: 'Subscribe for $10.00' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(screen.getByRole('button', { name: 'Subscribe for $10.00' })).toBeEnabled();
    expect(screen.getByLabelText('Card number')).toBeEnabled();
  });

  it("shows the server's message as it is", async () => {
    stubApi({
      ...signedInAs('ann', 'user'),
      ...CONFIG,
      ...NO_SUBSCRIPTION,
      'POST /api/create-subscription': () =>
        apiError(402, 'Your card was declined.', 'PAYMENT_DECLINED'),
    });
    renderApp('/subscribe');
    const submit = await screen.findByRole('button', { name: 'Subscribe for $10.00' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(stripeStub.confirmCardPayment).not.toHaveBeenCalled();
  });

  it('says so when Stripe.js cannot be loaded', async () => {
    stripeStub.loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    stubApi({
      ...signedInAs('ann', 'user'),
      ...NO_SUBSCRIPTION,
      // a key of its own: Stripe.js is loaded once per key and page
      'GET /api/subscription/config': () => jsonResponse({ publishableKey: 'pk_test_offline' }),
    });
    renderApp('/subscribe');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The secure card form could not be loaded.',
    );
  });
});
