import type { AdminGame } from '@portfolio/types/game-host';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useRoutes } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../ui/error-page';
import { serverMessageOr } from '../../lib/server-message';
import { AdminSection } from '../../ui/admin-section';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { AdminNav } from '../../ui/admin-nav';
import { type NoticeState, noticeOf } from '../../lib/navigation-notice';
import { playPath } from '../games';
import { createGame, deleteGame, updateGame } from './admin-games-api';
import { useAdminGamesStore } from './admin-games-store';
import { AdminTokensSection, PublishCommands } from './admin-tokens-section';
import { BuildUpload } from './build-upload';
import { BuildVersions } from './build-versions';
import {
  checkGameChanges,
  checkNewGame,
  EMPTY_GAME,
  GameForm,
  valuesOf,
  type GameFormValues,
} from './game-form';
import { GameHistory } from './game-history';
import { ACCESS_LABELS, SECTION_LABELS } from './game-labels';
import { AchievementsSection } from './achievements-section';
import { LeaderboardsSection } from './leaderboards-section';
import { LiveRoomsSection, RoomSettingsSection } from './rooms-admin';
import { ThumbnailUpload } from './thumbnail-upload';

import './admin-games.css';
import { ErrorAlert } from '../../ui/error-alert';

export const GAME_DELETED = 'Game deleted';
export const DELETE_GAME_ERROR = 'Failed to delete the game';
export const PUBLISH_ERROR = 'Failed to change whether the game is published';
export const SAVE_ERROR = 'Failed to save the game';
export const CREATE_ERROR = 'Failed to add the game';

/** Loads the games when the page opens (the store keeps the last answer meanwhile). */
function useAdminGames() {
  const games = useAdminGamesStore((state) => state.games);
  const error = useAdminGamesStore((state) => state.error);
  const load = useAdminGamesStore((state) => state.load);
  useEffect(() => {
    void load();
  }, [load]);
  return { games, error, load };
}

/** Rejects with the server's message (or the fallback) so the form shows it. */
async function withMessage(action: Promise<void>, fallback: string): Promise<void> {
  try {
    await action;
  } catch (error) {
    throw new Error(serverMessageOr(error, fallback), { cause: error });
  }
}

function PageHeader({ title }: { title: string }) {
  return (
    <>
      <header className="admin-dashboard__header">
        <h1 id="admin-games-title">{title}</h1>
      </header>
      <AdminNav />
    </>
  );
}

/**
 * The admin's Games section: the list at /admin/games, a game at /admin/games/:gameId. One route
 * in the app's table (kept small: it is part of the home page's entry), the rest here.
 */
export function AdminGamesSection() {
  return useRoutes([
    { index: true, element: <AdminGamesPage /> },
    { path: ':gameId', element: <AdminGamePage /> },
    { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
  ]);
}

/** /admin/games: every game (published or not), adding one, and the admin API tokens. */
export function AdminGamesPage() {
  const { games, error, load } = useAdminGames();
  const navigate = useNavigate();
  const notice = noticeOf(useLocation().state);
  const [isAdding, setAdding] = useState(false);

  const handleCreate = async (values: GameFormValues) => {
    const checked = checkNewGame(values);
    if (!checked.ok) {
      throw new Error(checked.message);
    }
    await withMessage(createGame(checked.body), CREATE_ERROR);
    await load();
    void navigate(`/admin/games/${encodeURIComponent(checked.body.id)}`);
  };

  return (
    <section className="page admin-games" aria-labelledby="admin-games-title">
      <PageHeader title="Games" />
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      <section className="admin-section" aria-labelledby="games-list-title">
        <div className="admin-games__section-header">
          <h2 id="games-list-title">All Games</h2>
          {isAdding ? null : (
            <button
              type="button"
              className="button button--primary"
              onClick={() => setAdding(true)}
              aria-expanded={false}
              aria-controls="add-game"
            >
              Add Game
            </button>
          )}
        </div>
        {isAdding ? (
          <div id="add-game" className="admin-panel" role="region" aria-label="Add a Game">
            <h3>Add a Game</h3>
            <p className="admin-muted">
              A new game starts unpublished; upload a build and publish it on its page.
            </p>
            <GameForm
              initial={EMPTY_GAME}
              mode="create"
              submitLabel="Add Game"
              busyLabel="Adding..."
              onSubmit={handleCreate}
              onCancel={() => setAdding(false)}
            />
          </div>
        ) : null}
        {error ? <ErrorAlert message={error} /> : null}
        {games === null && !error ? <p className="admin-muted loading-room">Loading...</p> : null}
        {games !== null && games.length === 0 ? <p className="admin-muted">No games yet.</p> : null}
        {games !== null && games.length > 0 ? <GameList games={games} /> : null}
      </section>
      <AdminTokensSection />
    </section>
  );
}

function GameList({ games }: { games: AdminGame[] }) {
  const sorted = [...games].sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
  return (
    <ul className="admin-game-list">
      {sorted.map((game) => (
        <li key={game.id} className="admin-game-list__item">
          <div className="admin-game-list__title">
            <h3>
              <Link to={`/admin/games/${encodeURIComponent(game.id)}`}>{game.title}</Link>
            </h3>
            <span className="admin-muted admin-game-list__id">{game.id}</span>
          </div>
          <dl className="admin-game-list__facts">
            <div>
              <dt>Section</dt>
              <dd>{SECTION_LABELS[game.section]}</dd>
            </div>
            <div>
              <dt>Access</dt>
              <dd>{ACCESS_LABELS[game.access]}</dd>
            </div>
            <StatusFacts game={game} />
            <div>
              <dt>Order</dt>
              <dd>{game.order}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** A game's Status and Live version, as the list and the game's page show them. */
function StatusFacts({ game }: { game: Pick<AdminGame, 'published' | 'version'> }) {
  return (
    <>
      <div>
        <dt>Status</dt>
        <dd>
          <PublishedBadge published={game.published} />
        </dd>
      </div>
      <div>
        <dt>Live version</dt>
        <dd data-testid="live-version">
          {game.version === null ? 'None' : `Version ${game.version}`}
        </dd>
      </div>
    </>
  );
}

function PublishedBadge({ published }: { published: boolean }) {
  return published ? (
    <span className="status-badge status-badge--green">Published</span>
  ) : (
    <span className="status-badge status-badge--gray">Unpublished</span>
  );
}

/** /admin/games/:gameId: one game's fields, publishing, thumbnail, builds and versions. */
export function AdminGamePage() {
  const { gameId = '' } = useParams();
  const { games, error, load } = useAdminGames();
  const game = games?.find((held) => held.id === gameId);

  return (
    <section className="page admin-games" aria-labelledby="admin-games-title">
      <p>
        <Link to="/admin/games" className="button button--secondary">
          All Games
        </Link>
      </p>
      {game ? (
        // keyed: another game starts from its own values
        <GameDetails key={game.id} game={game} onChanged={load} />
      ) : (
        <>
          <PageHeader title="Game" />
          {error ? <ErrorAlert message={error} /> : null}
          {games === null && !error ? <p className="admin-muted">Loading...</p> : null}
          {games !== null ? (
            <p className="alert alert--error" role="alert">
              No game with the id {gameId}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function GameDetails({ game, onChanged }: { game: AdminGame; onChanged: () => Promise<void> }) {
  const replaceGame = useAdminGamesStore((state) => state.replaceGame);

  const handleSave = async (values: GameFormValues) => {
    const checked = checkGameChanges(game, values);
    if (!checked.ok) {
      throw new Error(checked.message);
    }
    if (Object.keys(checked.body).length > 0) {
      await withMessage(updateGame(game.id, checked.body), SAVE_ERROR);
      await onChanged();
    }
  };

  return (
    <>
      <PageHeader title={game.title} />
      <GameStatusPanel game={game} onChanged={onChanged} />

      <AdminSection titleId="upload-build-title" title="Upload a Build">
        <BuildUpload
          game={game}
          onUploaded={(response) => {
            replaceGame(response.game);
          }}
        />
      </AdminSection>

      <AdminSection titleId="versions-title" title="Versions">
        <BuildVersions game={game} onChanged={onChanged} />
      </AdminSection>

      <AdminSection titleId="game-details-title" title="Details">
        <GameForm
          initial={valuesOf(game)}
          mode="edit"
          submitLabel="Save Changes"
          busyLabel="Saving..."
          successMessage="Changes saved"
          onSubmit={handleSave}
        />
      </AdminSection>

      <AdminSection titleId="thumbnail-title" title="Thumbnail">
        <ThumbnailUpload game={game} onUploaded={onChanged} />
      </AdminSection>

      <AdminSection titleId="leaderboards-title" title="Leaderboards">
        <LeaderboardsSection game={game} />
      </AdminSection>

      <AdminSection titleId="achievements-title" title="Achievements">
        <AchievementsSection game={game} />
      </AdminSection>

      <AdminSection titleId="room-settings-title" title="Rooms">
        <RoomSettingsSection game={game} />
      </AdminSection>

      <AdminSection titleId="live-rooms-title" title="Live Rooms">
        <LiveRoomsSection gameId={game.id} titleId="live-rooms-title" />
      </AdminSection>

      <AdminSection titleId="terminal-title" title="Publish from a Terminal">
        <PublishCommands gameId={game.id} />
        <p className="admin-muted">
          Tokens are made under <Link to="/admin/games#api-tokens-title">API Tokens</Link>.
        </p>
      </AdminSection>

      <AdminSection titleId="game-history-title" title="History">
        <GameHistory
          gameId={game.id}
          revision={`${game.updatedAt} ${game.version ?? 0} ${game.builds.length}`}
        />
      </AdminSection>

      <DangerZone game={game} onChanged={onChanged} />
    </>
  );
}

interface GamePartProps {
  game: AdminGame;
  onChanged: () => Promise<void>;
}

/** The game's id and state, with Publish or Unpublish. */
function GameStatusPanel({ game, onChanged }: GamePartProps) {
  // a refusal belongs to the version it was given for: "Upload a build before publishing" goes
  // once a build is uploaded
  const [publishError, setPublishError] = useState<{
    message: string;
    version: number | null;
  } | null>(null);
  const shownPublishError = publishError?.version === game.version ? publishError.message : null;
  const [isPublishing, setPublishing] = useState(false);

  const handlePublish = async () => {
    setPublishing(true);
    setPublishError(null);
    try {
      await updateGame(game.id, { published: !game.published });
      await onChanged();
    } catch (failure) {
      console.warn(PUBLISH_ERROR, failure);
      setPublishError({
        message: serverMessageOr(failure, PUBLISH_ERROR),
        version: game.version,
      });
    } finally {
      setPublishing(false);
    }
  };

  return (
    <section className="admin-panel game-status" aria-labelledby="game-status-title">
      <h2 id="game-status-title" className="visually-hidden">
        Status
      </h2>
      <dl className="admin-game-list__facts">
        <div>
          <dt>Id</dt>
          <dd>
            <code>{game.id}</code>
          </dd>
        </div>
        <StatusFacts game={game} />
      </dl>
      <div className="form__actions">
        <button
          type="button"
          className={`button ${game.published ? 'button--secondary' : 'button--primary'}`}
          onClick={() => void handlePublish()}
          disabled={isPublishing}
        >
          {game.published ? 'Unpublish' : 'Publish'}
        </button>
        {game.published && game.version !== null ? (
          <Link to={playPath(game.id, false)} className="button button--ghost">
            Open on /games
          </Link>
        ) : null}
      </div>
      <div role="alert">
        {shownPublishError ? <p className="alert alert--error">{shownPublishError}</p> : null}
      </div>
    </section>
  );
}

/** Deleting the game (not a built-in one), after a confirmation. */
function DangerZone({ game, onChanged }: GamePartProps) {
  const navigate = useNavigate();
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const handleDelete = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteGame(game.id);
      setDeleteOpen(false);
      await onChanged();
      const state: NoticeState = { notice: GAME_DELETED };
      void navigate('/admin/games', { state });
    } catch (failure) {
      console.warn(DELETE_GAME_ERROR, failure);
      setDeleteOpen(false);
      setDeleteError(serverMessageOr(failure, DELETE_GAME_ERROR));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <>
      <section className="card danger-zone" aria-labelledby="game-danger-title">
        <h2 id="game-danger-title">Danger Zone</h2>
        <div role="alert">
          {deleteError ? <p className="alert alert--error">{deleteError}</p> : null}
        </div>
        {game.isBuiltIn ? (
          <p className="admin-muted">
            A built-in game cannot be deleted; unpublish it to take it off /games.
          </p>
        ) : (
          <button
            type="button"
            className="button button--danger"
            onClick={() => setDeleteOpen(true)}
          >
            Delete Game
          </button>
        )}
      </section>
      <ConfirmDialog
        isOpen={isDeleteOpen}
        title="Delete Game"
        message={`Delete ${game.title} and every version of it? This action cannot be undone.`}
        confirmLabel="Delete"
        isBusy={isDeleting}
        onConfirm={() => void handleDelete()}
        onCancel={() => setDeleteOpen(false)}
      />
    </>
  );
}
