import { MessageResponse } from '@portfolio/types';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';

import { http } from '../../lib/http';
import { serverMessageOr } from '../../lib/server-message';
import { ErrorAlert } from '../../ui/error-alert';

type State =
  { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /confirm-email#token=…: the page a confirmation link opens; confirms at once. */
export function ConfirmEmailPage() {
  const location = useLocation();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  // without a token there is nothing to ask the server
  const [state, setState] = useState<State>(() =>
    token
      ? { kind: 'working' }
      : { kind: 'failed', message: 'This page needs the link from your email.' },
  );

  useEffect(() => {
    if (!token) {
      return;
    }
    let isMounted = true;
    http.post('/api/auth/confirm-email', { token }, MessageResponse).then(
      ({ message }) => isMounted && setState({ kind: 'done', message }),
      (caught: unknown) =>
        isMounted &&
        setState({ kind: 'failed', message: serverMessageOr(caught, 'Failed to confirm email') }),
    );
    return () => {
      isMounted = false;
    };
  }, [token]);

  return (
    <section className="page page--narrow auth-page" aria-labelledby="confirm-title">
      <div className="card">
        <h1 id="confirm-title">Confirm email</h1>
        {state.kind === 'working' ? <p role="status">Confirming...</p> : null}
        {state.kind === 'done' ? (
          <p className="notice notice--success" role="status">
            {state.message}
          </p>
        ) : null}
        {state.kind === 'failed' ? <ErrorAlert message={state.message} /> : null}
        <p className="auth-page__switch">
          <Link to="/profile">Profile</Link>
        </p>
      </div>
    </section>
  );
}
