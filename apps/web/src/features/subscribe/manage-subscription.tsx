import { useMemo, useState } from 'react';

import { isHttpError } from '../../lib/http';
import { useResource } from '../../ui/use-resource';
import { subscriptionApi } from './subscription-api';

const PORTAL_FAILED = 'Could not open the subscription settings. Please try again.';

/**
 * 'Manage subscription': opens Stripe's customer portal (cancel, change card); the portal sends
 * the user back to /profile, and its webhooks update the account. Renders nothing for a user
 * without a Stripe customer unless `canManage` says otherwise.
 */
export function ManageSubscription({ canManage }: { canManage?: boolean }) {
  // asked of the server only when the caller does not know
  const load = useMemo(
    () =>
      canManage === undefined ? (signal: AbortSignal) => subscriptionApi.getState(signal) : null,
    [canManage],
  );
  // a failed read shows nothing: the button is an extra
  const fetchedCanManage = useResource(load, PORTAL_FAILED).data?.canManage ?? false;
  const isAvailable = canManage ?? fetchedCanManage;
  const [isOpening, setIsOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!isAvailable) {
    return null;
  }

  const handleOpen = async () => {
    setIsOpening(true);
    setError(null);
    try {
      const { url } = await subscriptionApi.createPortalSession();
      window.location.assign(url);
    } catch (caught) {
      setError(isHttpError(caught) && caught.serverMessage ? caught.serverMessage : PORTAL_FAILED);
      setIsOpening(false);
    }
  };

  return (
    <div className="manage-subscription">
      <button
        type="button"
        className="button button--secondary"
        disabled={isOpening}
        onClick={() => {
          void handleOpen();
        }}
      >
        {isOpening ? 'Opening...' : 'Manage subscription'}
      </button>
      {error ? (
        <p className="form__hint form__hint--bad" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
