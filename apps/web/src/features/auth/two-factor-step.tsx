import { TWO_FACTOR_ERROR_CODES } from '@portfolio/types/two-factor';
import { useState, type FormEvent } from 'react';

import { ErrorAlert } from '../../ui/error-alert';
import { FormField } from '../../ui/form-field';
import { type AuthError, toAuthError } from './auth-error';
import { useAuthStore } from './auth-store';

/**
 * The login's second step for an account with two-factor sign-in: a code from the
 * authenticator app, or one of the recovery codes. The password step's challenge lasts a few
 * minutes and a few wrong codes; past that the user starts again.
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const loginWithCode = useAuthStore((state) => state.loginWithCode);
  const [code, setCode] = useState('');
  const [error, setError] = useState<AuthError | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const isExpired = error?.apiCode === TWO_FACTOR_ERROR_CODES.challengeExpired;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setIsSubmitting(true);
    try {
      await loginWithCode(challenge, code);
      onSignedIn();
    } catch (caught) {
      setError(toAuthError(caught));
      setCode('');
      setIsSubmitting(false);
    }
  };

  return (
    <div className="two-factor-step">
      <p id="login-code-hint">
        Enter the 6-digit code from your authenticator app, or one of your recovery codes.
      </p>
      {error ? (
        <ErrorAlert
          message={error.message}
          code={error.code}
          details={error.details}
          onClose={() => setError(null)}
        />
      ) : null}
      {isExpired ? (
        <button type="button" className="button button--primary" onClick={onRestart}>
          Log in again
        </button>
      ) : (
        <form
          className="form"
          onSubmit={(event) => {
            void handleSubmit(event);
          }}
        >
          <FormField
            id="login-code"
            label="Authentication code"
            value={code}
            onValueChange={setCode}
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby="login-code-hint"
            required
            autoFocus
          />
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Verifying...' : 'Verify'}
          </button>
          <button type="button" className="button" onClick={onRestart}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
