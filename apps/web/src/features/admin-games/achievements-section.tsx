import { type FormEvent, useCallback, useState } from 'react';

import {
  type AdminAchievementsResponse,
  formatShare,
  PutAchievementRequest,
} from '@portfolio/types/achievements';
import type { AdminGame } from '@portfolio/types/game-host';

import { issueSentence } from '../../lib/zod-issues';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useResource } from '../../ui/use-resource';
import {
  deleteAchievement,
  listAdminAchievements,
  putAchievement,
  uploadAchievementIcon,
} from './admin-games-api';
import { AchievementFields, type AchievementValues, EMPTY_ACHIEVEMENT } from './achievement-form';
import {
  EditorActions,
  SectionMessages,
  useEntryEditor,
  useSectionCommands,
} from './section-editor';

/** An achievement as the admin's list shows it. */
type AdminAchievement = AdminAchievementsResponse['achievements'][number];

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

const valuesOf = (achievement: AdminAchievement): AchievementValues => ({
  key: achievement.key,
  name: achievement.name,
  description: achievement.description,
  points: String(achievement.points),
  hidden: achievement.hidden,
});

/**
 * The game's achievement catalogue in its admin page: definitions (add, edit, delete, icon), how
 * many players have each, and the names players unlocked that it does not define, to adopt.
 */
export function AchievementsSection({ game }: { game: AdminGame }) {
  const load = useCallback(
    (signal: AbortSignal) => listAdminAchievements(game.id, signal),
    [game.id],
  );
  const resource = useResource(load, 'Failed to load the achievements');
  const view = resource.data;
  const editor = useEntryEditor(EMPTY_ACHIEVEMENT);
  const { values, isEditing } = editor;
  const commands = useSectionCommands(resource.reload);
  const [deleting, setDeleting] = useState<string | null>(null);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    commands.setStatus(null);
    const key = values.key.trim();
    if (!key) {
      commands.setError('Key: is required');
      return;
    }
    const parsed = PutAchievementRequest.safeParse({
      name: values.name,
      description: values.description,
      points: Number(values.points),
      hidden: values.hidden,
    });
    if (!parsed.success) {
      commands.setError(
        issueSentence(parsed.error.issues, { separator: ': ', fallback: 'Check the fields' }),
      );
      return;
    }
    const isSaved = await commands.run(
      () => putAchievement(game.id, key, parsed.data),
      isEditing ? 'Achievement saved' : 'Achievement added',
      'Failed to save the achievement',
    );
    if (isSaved) {
      editor.reset();
    }
  };

  const handleIcon = async (key: string, file: File | undefined) => {
    if (!file) {
      return;
    }
    commands.setStatus(null);
    if (!IMAGE_TYPES.includes(file.type)) {
      commands.setError('Choose a PNG, JPEG or WebP image.');
      return;
    }
    await commands.run(
      () => uploadAchievementIcon(game.id, key, file),
      'Icon uploaded',
      'Failed to upload the icon',
    );
  };

  const handleDelete = async () => {
    const key = deleting;
    setDeleting(null);
    if (key) {
      await commands.run(
        () => deleteAchievement(game.id, key),
        'Achievement deleted',
        'Failed to delete the achievement',
      );
    }
  };

  return (
    <div className="achievements-admin">
      {view ? (
        <AchievementList
          view={view}
          onIcon={(key, file) => void handleIcon(key, file)}
          onEdit={(achievement) => editor.fill(valuesOf(achievement), true)}
          onDelete={setDeleting}
        />
      ) : (
        <ul className="achievements-admin__list" />
      )}
      {view && view.undefined.length > 0 ? (
        <UndefinedNames
          view={view}
          onAdopt={(key) => editor.fill({ ...EMPTY_ACHIEVEMENT, key, name: key }, false)}
        />
      ) : null}

      <form
        className="form achievements-admin__form"
        onSubmit={(event) => void handleSubmit(event)}
      >
        <h3>{isEditing ? `Edit ${values.key}` : 'Add an Achievement'}</h3>
        <AchievementFields values={values} isEditing={isEditing} change={editor.change} />
        <SectionMessages error={commands.error ?? resource.error} status={commands.status} />
        <EditorActions noun="Achievement" isEditing={isEditing} onCancel={editor.reset} />
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

interface AchievementListProps {
  view: AdminAchievementsResponse;
  onIcon: (key: string, file: File | undefined) => void;
  onEdit: (achievement: AdminAchievement) => void;
  onDelete: (key: string) => void;
}

/** The defined achievements with their icons, points, share of players and actions. */
function AchievementList({ view, onIcon, onEdit, onDelete }: AchievementListProps) {
  const players = view.players;
  return (
    <>
      {view.achievements.length === 0 ? (
        <p className="admin-muted">No achievements defined yet.</p>
      ) : null}
      <ul className="achievements-admin__list">
        {view.achievements.map((achievement) => (
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
                      onIcon(achievement.key, event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                </label>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Edit ${achievement.name}`}
                  onClick={() => onEdit(achievement)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={`Delete ${achievement.name}`}
                  onClick={() => onDelete(achievement.key)}
                >
                  Delete
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Names the game unlocked that the catalogue does not define, each with Adopt. */
function UndefinedNames({
  view,
  onAdopt,
}: {
  view: AdminAchievementsResponse;
  onAdopt: (key: string) => void;
}) {
  return (
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
              onClick={() => onAdopt(entry.key)}
            >
              Adopt
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
