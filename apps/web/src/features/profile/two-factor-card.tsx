import type { TwoFactorSetupResponse, TwoFactorStatus } from '@portfolio/types/two-factor';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';

import { FormField } from '../../ui/form-field';
import { readLoginState } from '../../lib/route-access';
import { safeRedirect } from '../../lib/safe-redirect';
import { serverMessageOr } from '../../lib/server-message';
import { useAuthStore } from '../auth';
import {
  beginTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
} from './two-factor-api';
import { ErrorAlert } from '../../ui/error-alert';

type CardState =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'status'; status: TwoFactorStatus }
  | { kind: 'setup'; setup: TwoFactorSetupResponse; status: TwoFactorStatus }
  | { kind: 'codes'; recoveryCodes: string[] };

/** The base32 key in groups of four, easier to type into an app by hand. */
const groupKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function ErrorBox({ message }: { message: string | null }) {
  if (!message) {
    return null;
  }
  return <ErrorAlert message={message} />;
}

/**
 * /profile's Two-factor sign-in card: set up TOTP with any authenticator app (the
 * otpauth:// link, or the key typed in), confirm with a code, keep the recovery codes shown once;
 * turn it off with the password. Loaded on its own, after the rest of the profile.
 */
export function TwoFactorCard() {
  const [state, setState] = useState<CardState>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const isSetupRequired = useAuthStore((store) => store.isTwoFactorSetupRequired);
  const navigate = useNavigate();
  // ADMIN_REQUIRE_2FA: the page the admin was going to when the setup was asked of them
  const returnTo = safeRedirect(readLoginState(useLocation().state).returnTo, '/profile');
  const [wasSetupRequired, setWasSetupRequired] = useState(false);

  const load = (signal?: AbortSignal) =>
    getTwoFactorStatus(signal).then(
      (status) => setState({ kind: 'status', status }),
      (caught: unknown) => {
        if (!signal?.aborted) {
          console.warn('Could not load two-factor sign-in', caught);
          setState({ kind: 'failed' });
        }
      },
    );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, []);

  const handleSetup = async (status: TwoFactorStatus) => {
    setError(null);
    setNotice(null);
    try {
      setState({ kind: 'setup', setup: await beginTwoFactorSetup(), status });
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to start the setup'));
    }
  };

  return (
    <section className="card profile-card two-factor-card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {isSetupRequired ? (
        <p className="notice" role="note">
          Admins must use two-factor sign-in. Set it up to continue.
        </p>
      ) : null}
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorBox message={error} />
      {state.kind === 'loading' ? <p className="muted">Loading...</p> : null}
      {state.kind === 'failed' ? <p className="muted">Failed to load two-factor sign-in.</p> : null}
      {state.kind === 'status' && !state.status.enabled ? (
        <>
          <p>
            Off. With it on, signing in also asks for a code from an authenticator app on your
            phone.
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void handleSetup(state.status)}
          >
            Set up two-factor sign-in
          </button>
        </>
      ) : null}
      {state.kind === 'setup' ? (
        <SetupForm
          setup={state.setup}
          onEnabled={(recoveryCodes) => {
            setWasSetupRequired(isSetupRequired);
            useAuthStore.setState({ isTwoFactorSetupRequired: false });
            setState({ kind: 'codes', recoveryCodes });
          }}
          onCancel={() => setState({ kind: 'status', status: state.status })}
        />
      ) : null}
      {state.kind === 'codes' ? (
        <RecoveryCodes
          codes={state.recoveryCodes}
          onDone={() => {
            if (wasSetupRequired && returnTo !== '/profile') {
              // the setup was in the way: on to where the admin was going
              void navigate(returnTo, { replace: true });
              return;
            }
            setNotice('Two-factor sign-in is on');
            void load();
          }}
        />
      ) : null}
      {state.kind === 'status' && state.status.enabled ? (
        <>
          <p>
            On. Recovery codes left: <strong>{state.status.recoveryCodesLeft}</strong>
          </p>
          <DisableForm
            onDisabled={() => {
              setNotice('Two-factor sign-in is off');
              void load();
              // an admin who must have it is taken back to the setup
              void useAuthStore.getState().init();
            }}
          />
        </>
      ) : null}
    </section>
  );
}

function SetupForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetupResponse;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setIsSaving(true);
    try {
      onEnabled((await enableTwoFactor(code)).recoveryCodes);
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to turn on two-factor sign-in'));
      setIsSaving(false);
    }
  };

  return (
    <form className="form profile-form" onSubmit={(event) => void handleSubmit(event)}>
      <p>
        Add this account to an authenticator app: scan the QR code with it,{' '}
        <a href={setup.otpauthUri}>open it in the app</a> on this device, or enter this key by hand
        (time-based, 6 digits):
      </p>
      <div className="two-factor-card__pairing">
        <img
          className="two-factor-card__qr"
          src={setup.qrCodeDataUrl}
          alt="QR code to add this account to an authenticator app"
          width={176}
          height={176}
        />
        <code className="two-factor-card__key" data-testid="two-factor-secret">
          {groupKey(setup.secret)}
        </code>
      </div>
      <FormField
        id="two-factor-enable-code"
        label="Code from the app"
        value={code}
        onValueChange={setCode}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
      />
      <ErrorBox message={error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {isSaving ? 'Turning on...' : 'Turn on'}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div>
      <p>
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone.
        They will not be shown again.
      </p>
      <ol className="two-factor-card__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" className="button button--primary" onClick={onDone}>
        I have saved them
      </button>
    </div>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setIsSaving(true);
    try {
      await disableTwoFactor({ password });
      onDisabled();
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to turn off two-factor sign-in'));
      setIsSaving(false);
    }
  };

  return (
    <form className="form profile-form" onSubmit={(event) => void handleSubmit(event)}>
      <FormField
        id="two-factor-disable-password"
        label="Current password"
        value={password}
        onValueChange={setPassword}
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      <ErrorBox message={error} />
      <div className="form__actions">
        <button type="submit" className="button button--secondary" disabled={isSaving}>
          {isSaving ? 'Turning off...' : 'Turn off two-factor sign-in'}
        </button>
      </div>
    </form>
  );
}
