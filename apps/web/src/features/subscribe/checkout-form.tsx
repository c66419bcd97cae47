import type { CurrentUser } from '@portfolio/types';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useCallback, useMemo, useState, type FormEvent } from 'react';

import { ErrorAlert } from '../../ui/error-alert';
import { useResource } from '../../ui/use-resource';
import { CHECKOUT_MESSAGES, runCheckout } from './run-checkout';
import { subscriptionApi } from './subscription-api';

const LOAD_FAILED =
  'The secure card form could not be loaded. Please check your connection and reload the page.';

const stripeByKey = new Map<string, Promise<Stripe | null>>();
/** Stripe.js from js.stripe.com, loaded once per key and only when the form is shown. */
function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  let loading = stripeByKey.get(publishableKey);
  if (!loading) {
    loading = loadStripe(publishableKey);
    loading.catch(() => stripeByKey.delete(publishableKey));
    stripeByKey.set(publishableKey, loading);
  }
  return loading;
}

interface CheckoutFormProps {
  publishableKey: string;
  onSubscribed: (user: CurrentUser | null) => void | Promise<void>;
}

/** The Secure Checkout card's form: Stripe Elements card entry and the subscribe button. */
export function CheckoutForm({ publishableKey, onSubscribed }: CheckoutFormProps) {
  const load = useCallback(async () => {
    const loaded = await loadStripeOnce(publishableKey);
    if (!loaded) {
      throw new Error('Stripe.js did not load');
    }
    return loaded;
  }, [publishableKey]);
  const { data: stripe, error } = useResource(load, LOAD_FAILED);
  const loadError = error === null ? null : LOAD_FAILED;

  if (loadError) {
    return (
      <p className="notice" role="alert">
        {loadError}
      </p>
    );
  }
  if (!stripe) {
    return (
      <p className="checkout__loading" role="status">
        Loading the secure card form...
      </p>
    );
  }
  return (
    <Elements stripe={stripe}>
      <CardForm onSubscribed={onSubscribed} />
    </Elements>
  );
}

function CardForm({ onSubscribed }: Pick<CheckoutFormProps, 'onSubscribed'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [isProcessing, setIsProcessing] = useState(false);
  const [isCardReady, setIsCardReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cardHint, setCardHint] = useState<string | null>(null);

  const options = useMemo<StripeCardElementOptions>(
    () => ({
      disabled: isProcessing,
      style: {
        base: { fontSize: '16px', color: '#1b1e2b', '::placeholder': { color: '#6b7089' } },
        invalid: { color: '#b42318' },
      },
    }),
    [isProcessing],
  );

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || isProcessing) {
      return;
    }
    const card = elements.getElement(CardElement);
    if (!card) {
      setError(CHECKOUT_MESSAGES.unexpected);
      return;
    }
    setIsProcessing(true);
    setError(null);
    const outcome = await runCheckout(stripe, card, subscriptionApi);
    if (!outcome.ok) {
      setError(outcome.message);
      setIsProcessing(false);
      return;
    }
    await onSubscribed(outcome.user);
  };

  return (
    <form
      className="form checkout"
      aria-busy={isProcessing}
      onSubmit={(event) => {
        void handleSubmit(event);
      }}
    >
      {error ? <ErrorAlert message={error} onClose={() => setError(null)} /> : null}
      <div className="form__field">
        <span className="checkout__label" id="card-details-label">
          Card details
        </span>
        <div
          className="checkout__card"
          role="group"
          aria-labelledby="card-details-label"
          aria-describedby={cardHint ? 'card-details-hint' : undefined}
        >
          <CardElement
            options={options}
            onReady={() => setIsCardReady(true)}
            onChange={(change) => setCardHint(change.error?.message ?? null)}
          />
        </div>
        {cardHint ? (
          <p id="card-details-hint" className="form__hint form__hint--bad">
            {cardHint}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="button button--primary"
        disabled={!stripe || !isCardReady || isProcessing}
      >
        {isProcessing ? 'Processing...' : 'Subscribe for $10.00'}
      </button>
    </form>
  );
}
