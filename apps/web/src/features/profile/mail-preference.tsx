import { useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { setMailPreferences } from './profile-api';
import { ErrorAlert } from '../../ui/error-alert';
import { FormField } from '../../ui/form-field';

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
    <>
      <FormField
        id="mail-preference"
        label="Email me news about my subscription"
        hint="Mail about payments, your password and your email address always comes."
        isInline
      >
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={checked}
            disabled={isSaving}
            onChange={(event) => void handleChange(event.target.checked)}
          />
        )}
      </FormField>
      {error ? <ErrorAlert message={error} /> : null}
    </>
  );
}
