import { GAME_CATALOGUE, type CurrentUser } from '@portfolio/types';
import {
  describeSubscriptionStatus,
  isHeldSubscriptionStatus,
  type PaymentsConfig,
  type SubscriptionState,
} from '@portfolio/types/subscription';
import { lazy, Suspense, useCallback } from 'react';
import { Link, useNavigate } from 'react-router';

import { useResource } from '../../ui/use-resource';
import { useAuthStore } from '../auth';
import { ManageSubscription } from './manage-subscription';
import { StripeDocument } from './stripe-document';
import { subscriptionApi } from './subscription-api';

// Stripe.js and Elements load only when the card form is shown
const CheckoutForm = lazy(() =>
  import('./checkout-form').then((module) => ({ default: module.CheckoutForm })),
);

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

const SUBSCRIBER_GAMES = GAME_CATALOGUE.filter((game) => game.access === 'subscriber');
const LOAD_FAILED = 'The checkout could not be loaded. Please reload the page.';

interface CheckoutData {
  config: PaymentsConfig;
  state: SubscriptionState | null;
}

function useCheckoutData(user: CurrentUser | null) {
  const userId = user?.id;
  const load = useCallback(
    async (signal: AbortSignal): Promise<CheckoutData> => {
      const [config, state] = await Promise.all([
        subscriptionApi.getPaymentsConfig(signal),
        userId ? subscriptionApi.getState(signal) : Promise.resolve(null),
      ]);
      return { config, state };
    },
    [userId],
  );
  // another user's answer replaces the last one when it comes (the form stays meanwhile)
  const { data, error } = useResource(load, LOAD_FAILED, { isKeptWhileLoading: true });
  // the page's own words, whatever the server said
  return { data: data ?? null, error: error === null ? null : LOAD_FAILED };
}

function Benefits() {
  return (
    <div className="card subscribe__benefits">
      <h2>Subscriber Benefits</h2>
      <p>A subscription unlocks the subscriber-only games of the games library:</p>
      <ul className="subscribe__games">
        {SUBSCRIBER_GAMES.map((game) => (
          <li key={game.id}>
            <strong>{game.title}</strong> – {game.description}
          </li>
        ))}
      </ul>
      <p>
        Play them in the browser on the <Link to="/games">Games</Link> page, as often as you like,
        for as long as the subscription runs.
      </p>
    </div>
  );
}

function Subscribed({ state }: { state: SubscriptionState | null }) {
  const badge = describeSubscriptionStatus(state?.status);
  return (
    <div className="subscribe__status">
      <p className="notice notice--success" role="status">
        You are subscribed. Enjoy the subscriber-only games!
      </p>
      {state?.status ? (
        <dl className="details">
          <dt>Status</dt>
          <dd>
            <span className={`badge badge--status-${badge.tone}`}>{badge.label}</span>
          </dd>
          {state.endDate ? (
            <>
              <dt>{state.cancelAtPeriodEnd ? 'End Date' : 'Next Payment Date'}</dt>
              <dd>{formatDate(state.endDate)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <div className="subscribe__actions">
        <ManageSubscription canManage={state?.canManage ?? false} />
        <Link to="/profile">Your profile</Link>
      </div>
    </div>
  );
}

function CheckoutBody({ user }: { user: CurrentUser | null }) {
  const navigate = useNavigate();
  const { data, error } = useCheckoutData(user);

  if (error) {
    return (
      <p className="notice" role="alert">
        {error}
      </p>
    );
  }
  if (!data) {
    return <p role="status">Loading...</p>;
  }
  // a subscriber is told so (an admin's grant needs no payments set up), never offered checkout
  if (user && (user.role === 'subscriber' || isHeldSubscriptionStatus(data.state?.status))) {
    return <Subscribed state={data.state} />;
  }
  if (!data.config.publishableKey) {
    return (
      <p className="notice" role="note">
        Payments are not configured on this site yet, so subscriptions cannot be bought right now.
      </p>
    );
  }
  if (!user) {
    return (
      <p className="subscribe__login">
        Please <Link to="/login?redirect=/subscribe">log in</Link> to subscribe. No account yet?{' '}
        <Link to="/register">Register</Link> first, it is free.
      </p>
    );
  }
  if (user.role === 'admin') {
    return (
      <p className="notice" role="note">
        Your admin account already has access to every game.
      </p>
    );
  }
  const publishableKey = data.config.publishableKey;
  return (
    <Suspense fallback={<p role="status">Loading the secure card form...</p>}>
      <CheckoutForm
        publishableKey={publishableKey}
        onSubscribed={async (updated) => {
          if (updated) {
            useAuthStore.setState({ user: updated });
          } else {
            await useAuthStore.getState().init();
          }
          await navigate('/games');
        }}
      />
    </Suspense>
  );
}

export function SubscribePage() {
  const user = useAuthStore((state) => state.user);
  return (
    <section className="page subscribe" aria-labelledby="subscribe-title">
      <h1 id="subscribe-title">Subscribe</h1>
      <div className="subscribe__grid">
        <Benefits />
        <div className="card subscribe__checkout">
          <h2>Secure Checkout</h2>
          <p className="price">$10.00 / quarter</p>
          <p className="subscribe__terms">Billed every 3 months - Cancel anytime</p>
          <CheckoutBody user={user} />
        </div>
      </div>
    </section>
  );
}

/** /subscribe: the page, in the document the server served for it (see StripeDocument). */
export function SubscribeRoute() {
  return (
    <StripeDocument>
      <SubscribePage />
    </StripeDocument>
  );
}
