import { USERNAME_REQUIRED_MESSAGE } from '@portfolio/types';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';

import { ErrorAlert } from '../../ui/error-alert';
import { type LoginState, readLoginState } from '../../lib/route-access';
import { FormField } from '../../ui/form-field';
import { safeRedirect, withRedirect } from '../../lib/safe-redirect';
import { AuthError, toAuthError } from './auth-error';
import { useAuthStore } from './auth-store';
import { getDeviceInfo } from './device-info';
import { TwoFactorStep } from './two-factor-step';

export function LoginPage() {
  const login = useAuthStore((state) => state.login);
  const hasSessionEnded = useAuthStore((state) => state.hasSessionEnded);
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<AuthError | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  /** Set when the password was right and the account asks for a second factor. */
  const [challenge, setChallenge] = useState<string | null>(null);

  const isAdminRequired = searchParams.get('admin') === 'true';
  const loginState = readLoginState(location.state);
  // the redirect query, else the guarded page that sent the user here, else home
  const destination = safeRedirect(searchParams.get('redirect') ?? loginState.returnTo);
  // ADMIN_REQUIRE_2FA: an admin without two-factor sign-in goes to set it up first, and on to
  // the destination once it is on
  const goOn = () =>
    useAuthStore.getState().isTwoFactorSetupRequired
      ? navigate('/profile', {
          replace: true,
          state: { returnTo: destination } satisfies LoginState,
        })
      : navigate(destination, { replace: true });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    // a name of only spaces passes the field's `required`: say so in a sentence, send nothing
    if (username.trim() === '') {
      setError(new AuthError({ code: 'AUTH_400', message: USERNAME_REQUIRED_MESSAGE }));
      return;
    }
    setIsSubmitting(true);
    try {
      const result = await login(username.trim(), password, getDeviceInfo());
      if (result.kind === 'code-required') {
        setPassword('');
        setChallenge(result.challenge);
        setIsSubmitting(false);
        return;
      }
      await goOn();
    } catch (caught) {
      setError(toAuthError(caught));
      setIsSubmitting(false);
    }
  };

  return (
    <section className="page page--narrow auth-page" aria-labelledby="login-title">
      <div className="card">
        <h1 id="login-title">Login</h1>
        {isAdminRequired ? (
          <p className="notice" role="note">
            Admin sign-in is required to view that page.
          </p>
        ) : null}
        {hasSessionEnded ? (
          <p className="notice" role="status">
            Your session has ended. Please log in again.
          </p>
        ) : null}
        {loginState.registered ? (
          <p className="notice notice--success" role="status">
            Account created. Please log in.
          </p>
        ) : null}
        {error ? (
          <ErrorAlert
            message={error.message}
            code={error.code}
            details={error.details}
            onClose={() => setError(null)}
          />
        ) : null}
        {challenge ? (
          <TwoFactorStep
            challenge={challenge}
            onSignedIn={() => void goOn()}
            onRestart={() => setChallenge(null)}
          />
        ) : (
          <form
            className="form"
            onSubmit={(event) => {
              void handleSubmit(event);
            }}
          >
            <FormField
              id="login-username"
              label="Username"
              value={username}
              onValueChange={setUsername}
              name="username"
              autoComplete="username"
              required
            />
            <FormField
              id="login-password"
              label="Password"
              value={password}
              onValueChange={setPassword}
              name="password"
              type="password"
              autoComplete="current-password"
              required
            />
            <button type="submit" className="button button--primary" disabled={isSubmitting}>
              {isSubmitting ? 'Logging in...' : 'Login'}
            </button>
          </form>
        )}
        <p className="auth-page__switch">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
        <p className="auth-page__switch">
          Don&apos;t have an account?{' '}
          <Link to={withRedirect('/register', destination)}>Register</Link>
        </p>
      </div>
    </section>
  );
}
