import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { FormField } from '../../ui/form-field';
import { serverMessageOr } from '../../lib/server-message';
import { requestPasswordReset } from './password-reset-api';
import { ErrorAlert } from '../../ui/error-alert';

/** /forgot-password: a username or email; the same answer whether or not the account exists. */
export function ForgotPasswordPage() {
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (login.trim() === '') {
      setError('Please enter your username or email');
      return;
    }
    setIsSubmitting(true);
    try {
      setSent((await requestPasswordReset({ login: login.trim() })).message);
    } catch (caught) {
      setError(serverMessageOr(caught, 'An unexpected error occurred'));
    } finally {
      setIsSubmitting(false);
    }
  };

  return (
    <section className="page page--narrow auth-page" aria-labelledby="forgot-title">
      <div className="card">
        <h1 id="forgot-title">Forgot password?</h1>
        {sent ? (
          <p className="notice notice--success" role="status">
            {sent}
          </p>
        ) : (
          <>
            <p>
              Give your username or the email address you confirmed. We will email a link that sets
              a new password. An account without a confirmed email can ask the site&apos;s admin for
              a link.
            </p>
            {error ? <ErrorAlert message={error} /> : null}
            <form
              className="form"
              noValidate
              onSubmit={(event) => {
                void handleSubmit(event);
              }}
            >
              <FormField
                id="forgot-login"
                label="Username or email"
                value={login}
                onValueChange={setLogin}
                name="login"
                autoComplete="username"
                required
              />
              <button type="submit" className="button button--primary" disabled={isSubmitting}>
                {isSubmitting ? 'Sending...' : 'Send reset link'}
              </button>
            </form>
          </>
        )}
        <p className="auth-page__switch">
          Remembered it? <Link to="/login">Login</Link>
        </p>
      </div>
    </section>
  );
}
