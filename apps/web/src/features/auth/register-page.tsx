import { RegisterRequest, WHOLE_MESSAGES } from '@portfolio/types';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { ConfirmPasswordField, FormField } from '../../ui/form-field';
import type { LoginState } from '../../lib/route-access';
import { safeRedirect, withRedirect } from '../../lib/safe-redirect';
import { issueSentence } from '../../lib/zod-issues';

import { AuthError } from './auth-error';
import { useAuthStore } from './auth-store';
import { ErrorAlert } from '../../ui/error-alert';

const FIELD_LABELS: Record<string, string> = {
  username: 'Username',
  email: 'Email',
  password: 'Password',
};

/** The first validation problem as a readable sentence, e.g. 'Username must be at least 3 …'. */
function firstIssue(input: unknown): string | null {
  const result = RegisterRequest.safeParse(input);
  if (result.success) {
    return null;
  }
  return issueSentence(result.error.issues, {
    labels: FIELD_LABELS,
    wholeMessages: WHOLE_MESSAGES,
    fallback: 'Registration failed',
  });
}

export function RegisterPage() {
  const register = useAuthStore((state) => state.register);
  const navigate = useNavigate();
  // where the visitor was going when they chose to register: login takes them there after
  const [searchParams] = useSearchParams();
  const loginPath = withRedirect('/login', safeRedirect(searchParams.get('redirect')));
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);

  const doPasswordsMatch = password === confirmPassword;

  /** A field's setter that also drops the error box: it spoke of what the form held before. */
  const editing =
    (setValue: (value: string) => void) =>
    (value: string): void => {
      setValue(value);
      setError(null);
    };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!doPasswordsMatch) {
      setError('Passwords do not match');
      return;
    }
    const input = { username: username.trim(), email: email.trim(), password };
    const problem = firstIssue(input);
    if (problem) {
      setError(problem);
      return;
    }
    setIsSubmitting(true);
    try {
      await register(input.email ? input : { username: input.username, password });
      await navigate(loginPath, { state: { registered: true } satisfies LoginState });
    } catch (caught) {
      setError(
        caught instanceof AuthError && caught.serverMessage
          ? caught.serverMessage
          : 'Registration failed',
      );
      setIsSubmitting(false);
    }
  };

  return (
    <section className="page page--narrow auth-page" aria-labelledby="register-title">
      <div className="card">
        <h1 id="register-title">Register</h1>
        {error ? <ErrorAlert message={error} /> : null}
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            void handleSubmit(event);
          }}
        >
          <FormField
            id="register-username"
            label="Username"
            value={username}
            onValueChange={editing(setUsername)}
            name="username"
            autoComplete="username"
            required
          />
          <FormField
            id="register-email"
            label="Email (optional)"
            value={email}
            onValueChange={editing(setEmail)}
            name="email"
            type="email"
            autoComplete="email"
          />
          <FormField
            id="register-password"
            label="Password"
            value={password}
            onValueChange={editing(setPassword)}
            name="password"
            type="password"
            autoComplete="new-password"
            required
          />
          <ConfirmPasswordField
            id="register-confirm-password"
            password={password}
            value={confirmPassword}
            onValueChange={editing(setConfirmPassword)}
          />
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Registering...' : 'Register'}
          </button>
        </form>
        <p className="auth-page__switch">
          Already have an account? <Link to={loginPath}>Login</Link>
        </p>
      </div>
    </section>
  );
}
