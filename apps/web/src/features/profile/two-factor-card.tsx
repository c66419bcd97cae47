import type { TwoFactorSetupResponse } from '@portfolio/types/two-factor';
import { useState, type FormEvent } from 'react';
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
import { useResource, warnOnFailure } from '../../ui/use-resource';

/** What the card shows over the loaded status: the setup's steps, then the recovery codes. */
type Step =
  { kind: 'setup'; setup: TwoFactorSetupResponse } | { kind: 'codes'; recoveryCodes: string[] };

const LOAD_ERROR = 'Failed to load two-factor sign-in.';

const loadStatus = (signal: AbortSignal) =>
  warnOnFailure(getTwoFactorStatus(signal), 'Could not load two-factor sign-in', signal);

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
  const { data: status, error: loadError, isLoading, reload } = useResource(loadStatus, LOAD_ERROR);
  const [step, setStep] = useState<Step | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const isSetupRequired = useAuthStore((store) => store.isTwoFactorSetupRequired);
  const navigate = useNavigate();
  // ADMIN_REQUIRE_2FA: the page the admin was going to when the setup was asked of them
  const returnTo = safeRedirect(readLoginState(useLocation().state).returnTo, '/profile');
  const [wasSetupRequired, setWasSetupRequired] = useState(false);
  // the status as shown: none while a step is on screen, or when the last read failed
  const shown = step === null && !loadError ? status : undefined;

  const handleSetup = async () => {
    setError(null);
    setNotice(null);
    try {
      setStep({ kind: 'setup', setup: await beginTwoFactorSetup() });
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
      {isLoading ? <p className="muted">Loading...</p> : null}
      {step === null && loadError ? <p className="muted">{LOAD_ERROR}</p> : null}
      {shown && !shown.enabled ? (
        <>
          <p>
            Off. With it on, signing in also asks for a code from an authenticator app on your
            phone.
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void handleSetup()}
          >
            Set up two-factor sign-in
          </button>
        </>
      ) : null}
      {step?.kind === 'setup' ? (
        <SetupForm
          setup={step.setup}
          onEnabled={(recoveryCodes) => {
            setWasSetupRequired(isSetupRequired);
            useAuthStore.setState({ isTwoFactorSetupRequired: false });
            setStep({ kind: 'codes', recoveryCodes });
          }}
          onCancel={() => setStep(null)}
        />
      ) : null}
      {step?.kind === 'codes' ? (
        <RecoveryCodes
          codes={step.recoveryCodes}
          onDone={() => {
            if (wasSetupRequired && returnTo !== '/profile') {
              // the setup was in the way: on to where the admin was going
              void navigate(returnTo, { replace: true });
              return;
            }
            setNotice('Two-factor sign-in is on');
            // the codes stay until the new status is here
            void reload().then(() => setStep(null));
          }}
        />
      ) : null}
      {shown?.enabled ? (
        <>
          <p>
            On. Recovery codes left: <strong>{shown.recoveryCodesLeft}</strong>
          </p>
          <DisableForm
            onDisabled={() => {
              setNotice('Two-factor sign-in is off');
              void reload();
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
