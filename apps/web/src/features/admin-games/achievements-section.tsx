import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';

import {
  type AdminAchievementsResponse,
  formatShare,
  PutAchievementRequest,
} from '@portfolio/types/achievements';
import type { AdminGame } from '@portfolio/types/game-host';

import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import {
  deleteAchievement,
  listAdminAchievements,
  putAchievement,
  uploadAchievementIcon,
} from './admin-games-api';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

interface AchievementValues {
  key: string;
  name: string;
  description: string;
  points: string;
  hidden: boolean;
}

const EMPTY: AchievementValues = {
  key: '',
  name: '',
  description: '',
  points: '10',
  hidden: false,
};

/**
 * The game's achievement catalogue in its admin page: definitions (add, edit, delete, icon), how
 * many players have each, and the names players unlocked that it does not define, to adopt.
 */
export function AchievementsSection({ game }: { game: AdminGame }) {
  const [view, setView] = useState<AdminAchievementsResponse | null>(null);
  const [values, setValues] = useState<AchievementValues>(EMPTY);
  const [isEditing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const field = useId();

  const reload = useCallback(async () => {
    setView(await listAdminAchievements(game.id));
  }, [game.id]);

  useEffect(() => {
    const controller = new AbortController();
    listAdminAchievements(game.id, controller.signal).then(setView, (failure: unknown) => {
      if (!controller.signal.aborted) {
        setError(serverMessageOr(failure, 'Failed to load the achievements'));
      }
    });
    return () => controller.abort();
  }, [game.id]);

  const change = <K extends keyof AchievementValues>(key: K, value: AchievementValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    const key = values.key.trim();
    if (!key) {
      setError('Key: is required');
      return;
    }
    const parsed = PutAchievementRequest.safeParse({
      name: values.name,
      description: values.description,
      points: Number(values.points),
      hidden: values.hidden,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(issue ? `${String(issue.path[0] ?? '')}: ${issue.message}` : 'Check the fields');
      return;
    }
    setError(null);
    try {
      await putAchievement(game.id, key, parsed.data);
      await reload();
      setStatus(isEditing ? 'Achievement saved' : 'Achievement added');
      setValues(EMPTY);
      setEditing(false);
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to save the achievement'));
    }
  };

  const handleIcon = async (key: string, file: File | undefined) => {
    if (!file) {
      return;
    }
    setStatus(null);
    if (!IMAGE_TYPES.includes(file.type)) {
      setError('Choose a PNG, JPEG or WebP image.');
      return;
    }
    setError(null);
    try {
      await uploadAchievementIcon(game.id, key, file);
      await reload();
      setStatus('Icon uploaded');
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to upload the icon'));
    }
  };

  const handleDelete = async () => {
    const key = deleting;
    setDeleting(null);
    if (!key) {
      return;
    }
    try {
      await deleteAchievement(game.id, key);
      await reload();
      setStatus('Achievement deleted');
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to delete the achievement'));
    }
  };

  const players = view?.players ?? 0;
  return (
    <div className="achievements-admin">
      {view && view.achievements.length === 0 ? (
        <p className="admin-muted">No achievements defined yet.</p>
      ) : null}
      <ul className="achievements-admin__list">
        {view?.achievements.map((achievement) => (
          <li key={achievement.key} className="achievements-admin__item">
            {achievement.iconUrl ? (
              <img src={achievement.iconUrl} alt="" width={48} height={48} />
            ) : (
              <span className="achievements-admin__no-icon">No icon</span>
            )}
            <div className="achievements-admin__body">
              <p className="achievements-admin__name">
                {achievement.name} <code>{achievement.key}</code>
              </p>
              <p className="admin-muted">
                {`${achievement.points} points${achievement.hidden ? ' · hidden until unlocked' : ''} · ${achievement.players} of ${players} players (${formatShare(players ? achievement.players / players : 0)})`}
              </p>
              {achievement.description ? <p>{achievement.description}</p> : null}
              <div className="achievements-admin__actions">
                <label className="button button--ghost achievements-admin__file">
                  {`Upload icon for ${achievement.name}`}
                  <input
                    type="file"
                    accept={IMAGE_TYPES.join(',')}
                    className="visually-hidden"
                    onChange={(event) => {
                      void handleIcon(achievement.key, event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                </label>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Edit ${achievement.name}`}
                  onClick={() => {
                    setValues({
                      key: achievement.key,
                      name: achievement.name,
                      description: achievement.description,
                      points: String(achievement.points),
                      hidden: achievement.hidden,
                    });
                    setEditing(true);
                  }}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={`Delete ${achievement.name}`}
                  onClick={() => setDeleting(achievement.key)}
                >
                  Delete
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>

      {view && view.undefined.length > 0 ? (
        <div className="achievements-admin__undefined">
          <h3>Undefined</h3>
          <p className="admin-muted">
            Names the game unlocked that the catalogue does not define. Adopt one to give it a name,
            points and an icon.
          </p>
          <ul>
            {view.undefined.map((entry) => (
              <li key={entry.key}>
                {`${entry.key} (${entry.players} ${entry.players === 1 ? 'player' : 'players'}) `}
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Adopt ${entry.key}`}
                  onClick={() => {
                    setValues({ ...EMPTY, key: entry.key, name: entry.key });
                    setEditing(false);
                  }}
                >
                  Adopt
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <form
        className="form achievements-admin__form"
        onSubmit={(event) => void handleSubmit(event)}
      >
        <h3>{isEditing ? `Edit ${values.key}` : 'Add an Achievement'}</h3>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={`${field}-key`}>Achievement key</label>
            <input
              id={`${field}-key`}
              value={values.key}
              readOnly={isEditing}
              required
              maxLength={100}
              onChange={(event) => change('key', event.target.value)}
              aria-describedby={`${field}-key-hint`}
            />
            <p id={`${field}-key-hint`} className="form__hint">
              What the game passes to GameSDK.unlock
            </p>
          </div>
          <div className="form__field">
            <label htmlFor={`${field}-name`}>Achievement name</label>
            <input
              id={`${field}-name`}
              value={values.name}
              required
              maxLength={100}
              onChange={(event) => change('name', event.target.value)}
            />
          </div>
          <div className="form__field">
            <label htmlFor={`${field}-points`}>Points</label>
            <input
              id={`${field}-points`}
              type="number"
              min={0}
              max={1000}
              step={1}
              value={values.points}
              onChange={(event) => change('points', event.target.value)}
            />
          </div>
        </div>
        <div className="form__field">
          <label htmlFor={`${field}-description`}>Achievement description</label>
          <textarea
            id={`${field}-description`}
            rows={2}
            maxLength={500}
            value={values.description}
            onChange={(event) => change('description', event.target.value)}
          />
        </div>
        <div className="form__field form__field--inline">
          <input
            id={`${field}-hidden`}
            type="checkbox"
            checked={values.hidden}
            onChange={(event) => change('hidden', event.target.checked)}
          />
          <label htmlFor={`${field}-hidden`}>Hidden until unlocked</label>
        </div>
        <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
        <p role="status" className="form__hint form__hint--ok">
          {status}
        </p>
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {isEditing ? 'Save Achievement' : 'Add Achievement'}
          </button>
          {isEditing && (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setValues(EMPTY);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          )}
        </div>
      </form>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete achievement"
        message={`Delete the achievement ${deleting ?? ''}? Players keep it; it shows as undefined.`}
        confirmLabel="Delete Achievement"
        onConfirm={() => void handleDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
