import { Password } from '@portfolio/types';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';

import { ConfirmPasswordField, FormField } from '../../ui/form-field';
import { serverMessageOr } from '../../lib/server-message';
import { resetPassword } from './password-reset-api';
import { ErrorAlert } from '../../ui/error-alert';

/** The token of a reset link: /reset-password#token=… (a fragment never reaches a server log). */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** /reset-password: the page a reset link opens; sets a new password with the link's token. */
export function ResetPasswordPage() {
  const location = useLocation();
  const [token] = useState(() => tokenOf(location.hash));
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const doPasswordsMatch = password === confirmPassword;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!doPasswordsMatch) {
      setError('Passwords do not match');
      return;
    }
    const checked = Password.safeParse(password);
    if (!checked.success) {
      setError(`Password ${checked.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    setIsSubmitting(true);
    try {
      setDone((await resetPassword({ token, password })).message);
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to reset password'));
    } finally {
      setIsSubmitting(false);
    }
  };

  return (
    <section className="page page--narrow auth-page" aria-labelledby="reset-title">
      <div className="card">
        <h1 id="reset-title">Choose a new password</h1>
        {done ? (
          <>
            <p className="notice notice--success" role="status">
              {done}
            </p>
            <p className="auth-page__switch">
              <Link to="/login">Login</Link>
            </p>
          </>
        ) : token === '' ? (
          <div className="alert alert--error" role="alert">
            <p className="alert__message">
              This page needs the link from your email.{' '}
              <Link to="/forgot-password">Ask for a new one</Link>.
            </p>
          </div>
        ) : (
          <>
            {error ? <ErrorAlert message={error} /> : null}
            <form
              className="form"
              noValidate
              onSubmit={(event) => {
                void handleSubmit(event);
              }}
            >
              <FormField
                id="reset-password"
                label="New password"
                value={password}
                onValueChange={setPassword}
                name="password"
                type="password"
                autoComplete="new-password"
                required
              />
              <ConfirmPasswordField
                id="reset-confirm-password"
                password={password}
                value={confirmPassword}
                onValueChange={setConfirmPassword}
              />
              <button type="submit" className="button button--primary" disabled={isSubmitting}>
                {isSubmitting ? 'Saving...' : 'Set new password'}
              </button>
            </form>
            <p className="auth-page__switch">
              Link expired? <Link to="/forgot-password">Ask for a new one</Link>
            </p>
          </>
        )}
      </div>
    </section>
  );
}
