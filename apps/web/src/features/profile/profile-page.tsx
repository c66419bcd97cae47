import type { Profile } from '@portfolio/types';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';

import { ErrorAlert } from '../../ui/error-alert';
import { ErrorBoundary } from '../../ui/error-boundary';
import { useAuthStore } from '../auth';
import { ManageSubscription } from '../subscribe';
import { AccountCard } from './account-card';
import { getProfile } from './profile-api';
import { SubscriptionDetailsCard } from './subscription-details-card';
import { UsageCard } from './usage-card';

// its own chunk: the setup's code loads after the rest of the profile
const TwoFactorCard = lazy(() =>
  import('./two-factor-card').then((module) => ({ default: module.TwoFactorCard })),
);

export const PROFILE_LOAD_ERROR = 'Failed to fetch profile data';

/** /profile: the signed-in user's account, subscription and usage (spec section 2). */
export function ProfilePage() {
  return (
    <section className="page profile-page" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      <ErrorBoundary>
        <ProfileContent />
      </ErrorBoundary>
    </section>
  );
}

type LoadState =
  | { kind: 'loading' }
  | { kind: 'loaded'; profile: Profile }
  | { kind: 'failed'; isAlertOpen: boolean };

function ProfileContent() {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  // ADMIN_REQUIRE_2FA: until the setup is done the server refuses the subscription's state (403)
  const isTwoFactorSetupRequired = useAuthStore((store) => store.isTwoFactorSetupRequired);

  useEffect(() => {
    const controller = new AbortController();
    getProfile(controller.signal).then(
      (profile) => setState({ kind: 'loaded', profile }),
      (error: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        console.warn(PROFILE_LOAD_ERROR, error);
        setState({ kind: 'failed', isAlertOpen: true });
      },
    );
    return () => controller.abort();
  }, []);

  if (state.kind === 'loading') {
    return <p className="muted">Loading...</p>;
  }
  if (state.kind === 'failed') {
    return state.isAlertOpen ? (
      <ErrorAlert
        message={PROFILE_LOAD_ERROR}
        onClose={() => setState({ kind: 'failed', isAlertOpen: false })}
      />
    ) : null;
  }
  const { profile } = state;
  return (
    <div className="profile-grid">
      <AccountCard
        profile={profile}
        onEmailUpdated={(email) =>
          setState({
            kind: 'loaded',
            profile: {
              ...profile,
              email,
              email_confirmed:
                profile.email_confirmed && profile.email?.toLowerCase() === email.toLowerCase(),
            },
          })
        }
      />
      <SubscriptionDetailsCard
        status={profile.subscription_status}
        startDate={profile.subscription_start_date}
        endDate={profile.subscription_end_date}
        grant={profile.subscription_grant}
      >
        {profile.role === 'user' ? (
          <Link to="/subscribe" className="button button--primary">
            Subscribe
          </Link>
        ) : null}
        <ManageSubscription canManage={isTwoFactorSetupRequired ? false : undefined} />
      </SubscriptionDetailsCard>
      <UsageCard profile={profile} />
      <Suspense fallback={null}>
        <TwoFactorCard />
      </Suspense>
    </div>
  );
}
