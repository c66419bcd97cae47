import { lazy, Suspense } from 'react';
import { Link } from 'react-router';

import { ErrorAlert } from '../../ui/error-alert';
import { ErrorBoundary } from '../../ui/error-boundary';
import { useAuthStore } from '../auth';
import { useResource } from '../../ui/use-resource';
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

function ProfileContent() {
  // ADMIN_REQUIRE_2FA: until the setup is done the server refuses the subscription's state (403)
  const isTwoFactorSetupRequired = useAuthStore((store) => store.isTwoFactorSetupRequired);
  const {
    data: profile,
    error,
    isLoading,
    setData,
    setError,
  } = useResource(getProfile, PROFILE_LOAD_ERROR);

  if (isLoading) {
    return <p className="muted loading-room">Loading...</p>;
  }
  if (!profile) {
    // the page's own words, whatever the server said; closed, the alert leaves nothing
    return error === null ? null : (
      <ErrorAlert message={PROFILE_LOAD_ERROR} onClose={() => setError(null)} />
    );
  }
  return (
    <div className="profile-grid">
      <AccountCard
        profile={profile}
        onEmailUpdated={(email) =>
          setData(() => ({
            ...profile,
            email,
            email_confirmed:
              profile.email_confirmed && profile.email?.toLowerCase() === email.toLowerCase(),
          }))
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
