import type { AuditEntry, UserDetail } from '@portfolio/types';
import { viewSubscription } from '@portfolio/types/subscription';
import { useCallback, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { formatDate, formatDateTime, formatDuration } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { NO_END_DATE, SubscriptionStatus } from '../../ui/subscription-status-badge';
import { ResetLinkCard } from './reset-link-card';
import type { NoticeState } from '../../lib/navigation-notice';
import { deleteUser, getUser, setGrantEnd } from './users-api';
import { ErrorAlert } from '../../ui/error-alert';
import { ChatStatusCard } from './chat-moderation';
import { nullIfNotFound, useResource, warnOnFailure } from '../../ui/use-resource';

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this user? This action cannot be undone.';
export const DELETE_ERROR = 'Error deleting user';
export const USER_LOAD_ERROR = 'Failed to fetch user details';
export const NO_SUCH_USER = 'No such user';
export const GRANT_END_ERROR = 'Failed to change the end date';

/** /admin/users/{userId}: one user's account, device, games, subscription and history. */
export function AdminUserPage() {
  const { userId = '' } = useParams();
  // a new id starts from a fresh load
  return <UserDetailPage key={userId} userId={userId} />;
}

function UserDetailPage({ userId }: { userId: string }) {
  // unknown and malformed ids alike are missing (the server answers 404 for both)
  const load = useCallback(
    (signal: AbortSignal) =>
      warnOnFailure(nullIfNotFound(getUser(userId, signal)), USER_LOAD_ERROR, signal),
    [userId],
  );
  // read again after a change on this page (with its new history entry); the page stays meanwhile
  const { data, error, isLoading, reload } = useResource(load, USER_LOAD_ERROR);
  const user = error ? undefined : data;

  return (
    <section className="page admin-user" aria-labelledby="admin-user-title">
      <p>
        <Link to="/admin" className="button button--secondary">
          Back
        </Link>
      </p>
      <h1 id="admin-user-title">{user ? user.username : 'User Details'}</h1>
      {isLoading ? <p className="admin-muted">Loading...</p> : null}
      {user === null ? (
        <div className="alert alert--error" role="alert">
          <p className="alert__message">{NO_SUCH_USER}</p>
          <p>
            <Link to="/admin">Back to User Management</Link>
          </p>
        </div>
      ) : null}
      {error ? <ErrorAlert message={error} /> : null}
      {user ? <UserDetails user={user} onChanged={() => void reload()} /> : null}
    </section>
  );
}

function UserDetails({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  return (
    <div className="admin-user__grid">
      <section className="card" aria-labelledby="user-account-title">
        <h2 id="user-account-title">Account Information</h2>
        <dl className="details">
          <dt>Role</dt>
          <dd>
            <span className={`role-tag role-tag--${user.role}`}>{user.role}</span>
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(user.created_at)}</dd>
          <dt>Last Login</dt>
          <dd>{user.last_login ? formatDateTime(user.last_login) : 'Never'}</dd>
          <dt>Total Time</dt>
          <dd>{formatDuration(user.total_time_spent)}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="user-device-title">
        <h2 id="user-device-title">Device Information</h2>
        <dl className="details">
          <dt>Type</dt>
          <dd>{user.device_info.type}</dd>
          <dt>OS</dt>
          <dd>{user.device_info.os}</dd>
          <dt>Browser</dt>
          <dd>{user.device_info.browser}</dd>
          <dt>Screen Size</dt>
          <dd>
            {user.device_info.screenWidth} × {user.device_info.screenHeight}
          </dd>
        </dl>
      </section>
      <section className="card admin-user__wide" aria-labelledby="user-games-title">
        <h2 id="user-games-title">Game Statistics</h2>
        {user.games.length === 0 ? (
          <p className="admin-muted">No game statistics available</p>
        ) : (
          <ul className="record-list">
            {user.games.map((game) => (
              <li key={game.game_id} className="record-list__item">
                <p className="record-list__title">{game.game_name}</p>
                <dl className="details">
                  <dt>Playtime</dt>
                  <dd>{formatDuration(game.playtime)}</dd>
                  <dt>Last Played</dt>
                  <dd>{game.last_played ? formatDateTime(game.last_played) : 'Never'}</dd>
                </dl>
                <details className="save-data">
                  <summary>Save data</summary>
                  <pre>{JSON.stringify(game.save_data ?? null, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="user-achievements-title">
        <h2 id="user-achievements-title">Achievements</h2>
        {user.achievements.length === 0 ? (
          <p className="admin-muted">No achievements unlocked</p>
        ) : (
          <ul className="record-list">
            {user.achievements.map((achievement) => (
              <li
                key={`${achievement.game_id}:${achievement.achievement_name}`}
                className="record-list__item"
              >
                <p className="record-list__title">
                  {achievement.icon_url ? (
                    <img
                      className="achievement-icon"
                      src={achievement.icon_url}
                      alt=""
                      width={24}
                      height={24}
                    />
                  ) : null}
                  {achievement.achievement_name}
                  {achievement.points !== undefined ? ` (${achievement.points} points)` : ''}
                </p>
                <p className="admin-muted">
                  {achievement.game_name} ·{' '}
                  <time dateTime={achievement.unlocked_at}>
                    {formatDateTime(achievement.unlocked_at)}
                  </time>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="user-subscription-title">
        <h2 id="user-subscription-title">Subscription Details</h2>
        <SubscriptionDetails user={user} />
        {user.role === 'subscriber' && user.subscription_grant ? (
          <GrantEndForm
            userId={user.id}
            endsAt={user.subscription_grant.ends_at}
            onChanged={onChanged}
          />
        ) : null}
      </section>
      <section className="card admin-user__wide" aria-labelledby="user-history-title">
        <h2 id="user-history-title">History</h2>
        {user.history.length === 0 ? (
          <p className="admin-muted">No role changes or deletions recorded.</p>
        ) : (
          <ul className="record-list">
            {user.history.map((entry) => (
              <li key={entry.id} className="record-list__item">
                <time className="admin-muted" dateTime={entry.at}>
                  {formatDateTime(entry.at)}
                </time>{' '}
                {describeAuditEntry(entry)}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ChatStatusCard user={user} onChanged={onChanged} />
      <ResetLinkCard user={user} onChanged={onChanged} />
      <DangerZone user={user} />
    </div>
  );
}

/** Stripe's subscription, or the one an admin granted with its start and end. */
function SubscriptionDetails({ user }: { user: UserDetail }) {
  const view = viewSubscription({
    status: user.subscription_status,
    startDate: null,
    endDate: user.subscription_end_date,
    grant: user.subscription_grant,
  });
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>
        <SubscriptionStatus status={view.status} isGrantedByAdmin={view.isGrantedByAdmin} />
      </dd>
      {view.isGrantedByAdmin ? (
        <>
          <dt>Start Date</dt>
          <dd>{formatDate(view.startDate)}</dd>
          <dt>End Date</dt>
          <dd>{view.endDate ? formatDate(view.endDate) : NO_END_DATE}</dd>
        </>
      ) : (
        <>
          <dt>Next Payment Date</dt>
          <dd>{formatDate(view.endDate)}</dd>
        </>
      )}
    </dl>
  );
}

/** A date input's value (YYYY-MM-DD, local) for an ISO time, and back (local midnight). */
function toDateInput(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
function fromDateInput(value: string): string {
  const [year = 0, month = 1, day = 1] = value.split('-').map(Number);
  return new Date(year, month - 1, day).toISOString();
}

/**
 * When the subscription an admin granted ends: a day (the grant ends as it begins, in the admin's
 * time zone; the role goes back to user within a minute), or no end.
 */
function GrantEndForm({
  userId,
  endsAt,
  onChanged,
}: {
  userId: string;
  endsAt: string | null;
  onChanged: () => void;
}) {
  const inputId = useId();
  const [value, setValue] = useState(endsAt ? toDateInput(endsAt) : '');
  const [isBusy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);

  const save = async (next: string | null) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const { message } = await setGrantEnd(userId, next === null ? null : fromDateInput(next));
      setStatus(message);
      onChanged();
    } catch (caught) {
      console.warn(GRANT_END_ERROR, caught);
      setError(serverMessageOr(caught, GRANT_END_ERROR));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form grant-end"
      onSubmit={(event) => {
        event.preventDefault();
        void save(value);
      }}
    >
      <div className="form__field">
        <label htmlFor={inputId}>Granted subscription ends on</label>
        <input
          id={inputId}
          type="date"
          required
          min={toDateInput(tomorrow.toISOString())}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--primary button--small" disabled={isBusy}>
          Save End Date
        </button>
        {endsAt ? (
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={isBusy}
            onClick={() => {
              setValue('');
              void save(null);
            }}
          >
            Remove End Date
          </button>
        ) : null}
      </div>
      <p role="status" className="form__hint form__hint--ok">
        {status}
      </p>
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
    </form>
  );
}

/** One audit entry as a sentence: 'alice changed bob's role from user to admin'. */
export function describeAuditEntry(entry: AuditEntry): string {
  if (entry.action === 'grant-end') {
    return entry.new_value
      ? `${entry.actor_username} set ${entry.target_username}'s granted subscription to end on ${formatDate(entry.new_value)}`
      : `${entry.actor_username} removed the end of ${entry.target_username}'s granted subscription`;
  }
  if (entry.action === '2fa-enable') {
    return `${entry.actor_username} turned on two-factor sign-in`;
  }
  if (entry.action === '2fa-disable') {
    return `${entry.actor_username} turned off two-factor sign-in`;
  }
  if (entry.action === '2fa-recovery-code') {
    return `${entry.actor_username} signed in with a recovery code (${entry.new_value ?? 'some'} left)`;
  }
  if (entry.action === 'reset-link') {
    return `${entry.actor_username} made a password reset link for ${entry.target_username}`;
  }
  if (entry.action === 'delete') {
    return `${entry.actor_username} deleted ${entry.target_username} (${entry.old_value ?? 'unknown role'})`;
  }
  return `${entry.actor_username} changed ${entry.target_username}'s role from ${entry.old_value ?? 'unknown'} to ${entry.new_value ?? 'unknown'}`;
}

function DangerZone({ user }: { user: UserDetail }) {
  const navigate = useNavigate();
  const [isConfirming, setIsConfirming] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const handleDelete = async () => {
    setIsDeleting(true);
    setError(null);
    try {
      const { message } = await deleteUser(user.id);
      // the spec's message, naming who is gone
      await navigate('/admin', {
        state: { notice: `${message}: ${user.username}` } satisfies NoticeState,
      });
    } catch (caught) {
      console.warn(DELETE_ERROR, caught);
      setError(serverMessageOr(caught, DELETE_ERROR));
      setIsDeleting(false);
      setIsConfirming(false);
    }
  };

  return (
    <section className="card danger-zone admin-user__wide" aria-labelledby="danger-zone-title">
      <h2 id="danger-zone-title">Danger Zone</h2>
      {error ? <ErrorAlert message={error} /> : null}
      <p>Deleting the account removes {user.username}&apos;s sessions and game records.</p>
      <button
        type="button"
        className="button button--danger"
        onClick={() => setIsConfirming(true)}
        disabled={isDeleting}
      >
        Delete Account
      </button>
      <ConfirmDialog
        isOpen={isConfirming}
        title="Delete Account"
        message={DELETE_CONFIRMATION}
        confirmLabel={isDeleting ? 'Deleting...' : 'Delete'}
        isBusy={isDeleting}
        onConfirm={() => {
          void handleDelete();
        }}
        onCancel={() => setIsConfirming(false)}
      />
    </section>
  );
}
