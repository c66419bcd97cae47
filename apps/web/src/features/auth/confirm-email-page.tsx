import { MessageResponse } from '@portfolio/types';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';

import { http } from '../../lib/http';
import { ErrorAlert } from '../../ui/error-alert';
import { useResource } from '../../ui/use-resource';

const NO_TOKEN = 'This page needs the link from your email.';

/** /confirm-email#token=…: the page a confirmation link opens; confirms at once. */
export function ConfirmEmailPage() {
  const location = useLocation();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  // without a token there is nothing to ask the server
  const confirm = useMemo(
    () => (token ? () => http.post('/api/auth/confirm-email', { token }, MessageResponse) : null),
    [token],
  );
  const { data, error, isLoading } = useResource(confirm, 'Failed to confirm email');
  const failure = token ? error : NO_TOKEN;

  return (
    <section className="page page--narrow auth-page" aria-labelledby="confirm-title">
      <div className="card">
        <h1 id="confirm-title">Confirm email</h1>
        {isLoading ? <p role="status">Confirming...</p> : null}
        {data ? (
          <p className="notice notice--success" role="status">
            {data.message}
          </p>
        ) : null}
        {failure ? <ErrorAlert message={failure} /> : null}
        <p className="auth-page__switch">
          <Link to="/profile">Profile</Link>
        </p>
      </div>
    </section>
  );
}
