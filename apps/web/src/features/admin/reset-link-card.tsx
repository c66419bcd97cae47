import { AdminResetLinkResponse, type UserDetail } from '@portfolio/types';
import { useState } from 'react';

import { formatDateTime } from '../../lib/format';
import { http } from '../../lib/http';
import { serverMessageOr } from '../../lib/server-message';
import { ErrorAlert } from '../../ui/error-alert';

/**
 * A one-time password reset link for a user who cannot get mail (no confirmed email): the admin
 * hands it over another way. Making one is written to the user's history.
 */
export function ResetLinkCard({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const [link, setLink] = useState<AdminResetLinkResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const handleMake = async () => {
    setIsBusy(true);
    setError(null);
    try {
      setLink(
        await http.post(
          `/api/users/${encodeURIComponent(user.id)}/reset-link`,
          undefined,
          AdminResetLinkResponse,
        ),
      );
      onChanged();
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to make a reset link'));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="user-reset-link-title">
      <h2 id="user-reset-link-title">Password Reset Link</h2>
      <p className="admin-muted">
        For a user without a confirmed email: a link that sets a new password once. Give it to them
        yourself; it is recorded in the history.
      </p>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={isBusy}
        onClick={() => void handleMake()}
      >
        Make Reset Link
      </button>
      {link ? (
        <p role="status">
          <input
            className="reset-link__url"
            aria-label="Reset link"
            readOnly
            value={link.url}
            onFocus={(event) => event.target.select()}
          />
          <span className="admin-muted">
            {' '}
            Works once, until{' '}
            <time dateTime={link.expires_at}>{formatDateTime(link.expires_at)}</time>.
          </span>
        </p>
      ) : null}
      {error ? <ErrorAlert message={error} /> : null}
    </section>
  );
}
