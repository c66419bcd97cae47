import {
  ChangePasswordRequest,
  type Profile,
  UpdateEmailRequest,
  WHOLE_MESSAGES,
} from '@portfolio/types';
import { useState, type FormEvent } from 'react';

import { ConfirmPasswordField, FormField } from '../../ui/form-field';
import { serverMessageOr } from '../../lib/server-message';
import { issueSentence } from '../../lib/zod-issues';
import { RoleBadge } from '../../ui/role-badge';
import { MailPreference } from './mail-preference';
import { changePassword, updateEmail } from './profile-api';
import { ErrorAlert } from '../../ui/error-alert';

const FIELD_LABELS: Record<string, string> = {
  email: 'Email',
  currentPassword: 'Current password',
  newPassword: 'New password',
};

function ErrorBox({ message }: { message: string | null }) {
  if (!message) {
    return null;
  }
  return <ErrorAlert message={message} />;
}

interface EmailFormProps {
  onSaved: (email: string) => void;
  onCancel: () => void;
}

function EmailForm({ onSaved, onCancel }: EmailFormProps) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = UpdateEmailRequest.safeParse({ email });
    if (!parsed.success) {
      setError(
        issueSentence(parsed.error.issues, {
          labels: FIELD_LABELS,
          wholeMessages: WHOLE_MESSAGES,
          fallback: 'Please enter a valid email address',
        }),
      );
      return;
    }
    setError(null);
    setIsSaving(true);
    try {
      await updateEmail(parsed.data);
      onSaved(parsed.data.email);
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to update email'));
      setIsSaving(false);
    }
  };

  return (
    <form
      className="form profile-form"
      noValidate
      aria-label="Update email"
      onSubmit={(event) => {
        void handleSubmit(event);
      }}
    >
      <ErrorBox message={error} />
      <FormField
        id="profile-email"
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        required
        autoFocus
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save'}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface PasswordFormProps {
  onChanged: () => void;
  onCancel: () => void;
}

function PasswordForm({ onChanged, onCancel }: PasswordFormProps) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const doPasswordsMatch = newPassword === confirmPassword;

  /** A field's setter that also drops the error box: it spoke of what the form held before. */
  const editing =
    (setValue: (value: string) => void) =>
    (value: string): void => {
      setValue(value);
      setError(null);
    };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (currentPassword === '') {
      setError('Current password is required');
      return;
    }
    if (!doPasswordsMatch) {
      setError('Passwords do not match');
      return;
    }
    const parsed = ChangePasswordRequest.safeParse({ currentPassword, newPassword });
    if (!parsed.success) {
      setError(
        issueSentence(parsed.error.issues, {
          labels: FIELD_LABELS,
          wholeMessages: WHOLE_MESSAGES,
          fallback: 'Failed to change password',
        }),
      );
      return;
    }
    setError(null);
    setIsSaving(true);
    try {
      await changePassword(parsed.data);
      onChanged();
    } catch (caught) {
      setError(serverMessageOr(caught, 'Failed to change password'));
      setIsSaving(false);
    }
  };

  return (
    <form
      className="form profile-form"
      noValidate
      aria-label="Change password"
      onSubmit={(event) => {
        void handleSubmit(event);
      }}
    >
      <ErrorBox message={error} />
      <FormField
        id="profile-current-password"
        label="Current Password"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        value={currentPassword}
        onValueChange={editing(setCurrentPassword)}
        required
        autoFocus
      />
      <FormField
        id="profile-new-password"
        label="New Password"
        type="password"
        name="newPassword"
        autoComplete="new-password"
        value={newPassword}
        onValueChange={editing(setNewPassword)}
        required
      />
      <ConfirmPasswordField
        id="profile-confirm-password"
        label="Confirm New Password"
        password={newPassword}
        value={confirmPassword}
        onValueChange={editing(setConfirmPassword)}
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save'}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type OpenForm = 'email' | 'password' | null;

interface AccountCardProps {
  profile: Profile;
  onEmailUpdated: (email: string) => void;
}

/** Account Information: username, email, role badge, and the email and password forms. */
export function AccountCard({ profile, onEmailUpdated }: AccountCardProps) {
  const [openForm, setOpenForm] = useState<OpenForm>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const open = (form: OpenForm) => {
    setNotice(null);
    setOpenForm(form);
  };

  return (
    <section className="card profile-card" aria-labelledby="account-title">
      <h2 id="account-title">Account Information</h2>
      <div role="status">{notice ? <p className="notice notice--success">{notice}</p> : null}</div>
      <dl className="details">
        <dt>Username</dt>
        <dd>{profile.username}</dd>
        <dt>Email</dt>
        <dd>
          {profile.email ?? 'Not set'}
          {profile.email !== null && !profile.email_confirmed ? (
            <>
              {' '}
              <span className="status-badge status-badge--orange">unconfirmed</span>
              <span className="form__hint form__hint--block">
                Follow the link we emailed to this address to confirm it.
              </span>
            </>
          ) : null}
        </dd>
        <dt>Role</dt>
        <dd>{profile.role === 'user' ? 'User' : <RoleBadge role={profile.role} />}</dd>
      </dl>
      <MailPreference isWanted={profile.subscription_mail} />
      {openForm === 'email' ? (
        <EmailForm
          onSaved={(email) => {
            onEmailUpdated(email);
            setOpenForm(null);
            setNotice('Email updated successfully');
          }}
          onCancel={() => setOpenForm(null)}
        />
      ) : null}
      {openForm === 'password' ? (
        <PasswordForm
          onChanged={() => {
            setOpenForm(null);
            setNotice('Password changed successfully');
          }}
          onCancel={() => setOpenForm(null)}
        />
      ) : null}
      {openForm === null ? (
        <div className="profile-card__actions">
          {/* the spec's form for a user without an email; one with an email may change it too */}
          <button type="button" className="button button--secondary" onClick={() => open('email')}>
            {profile.email === null ? 'Update Email' : 'Change Email'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => open('password')}
          >
            Change Password
          </button>
        </div>
      ) : null}
    </section>
  );
}
