import { useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { setMailPreferences } from './profile-api';
import { ErrorAlert } from '../../ui/error-alert';

/** The one mail preference: subscription news (mail about payments and passwords always comes). */
export function MailPreference({ isWanted }: { isWanted: boolean }) {
  const [checked, setChecked] = useState(isWanted);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const handleChange = async (next: boolean) => {
    setChecked(next);
    setError(null);
    setIsSaving(true);
    try {
      await setMailPreferences({ subscription_mail: next });
    } catch (caught) {
      setChecked(!next);
      setError(serverMessageOr(caught, 'Failed to save email preferences'));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <div className="form__field">
      <label className="form__check">
        <input
          type="checkbox"
          checked={checked}
          disabled={isSaving}
          onChange={(event) => void handleChange(event.target.checked)}
        />
        Email me news about my subscription
      </label>
      <span className="form__hint">
        Mail about payments, your password and your email address always comes.
      </span>
      {error ? <ErrorAlert message={error} /> : null}
    </div>
  );
}
