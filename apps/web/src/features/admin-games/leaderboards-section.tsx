import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';

import type { AdminGame } from '@portfolio/types/game-host';
import {
  type Leaderboard,
  type LeaderboardBan,
  type LeaderboardFormat,
  type PlayerScore,
  formatScore,
  PutLeaderboardRequest,
} from '@portfolio/types/leaderboards';

import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import {
  banPlayer,
  deleteLeaderboard,
  listAdminLeaderboards,
  listBans,
  listScores,
  putLeaderboard,
  removeScore,
  unbanPlayer,
} from './admin-games-api';

const FORMAT_LABELS: Record<LeaderboardFormat, string> = {
  number: 'Number',
  time: 'Time (value in milliseconds)',
  suffix: 'Number with a suffix',
};

interface BoardValues {
  board: string;
  name: string;
  order: 'desc' | 'asc';
  format: LeaderboardFormat;
  suffix: string;
  min: string;
  max: string;
}

const EMPTY_BOARD: BoardValues = {
  board: '',
  name: '',
  order: 'desc',
  format: 'number',
  suffix: '',
  min: '',
  max: '',
};

const valuesOfBoard = (board: Leaderboard): BoardValues => ({
  board: board.board,
  name: board.name,
  order: board.order,
  format: board.format,
  suffix: board.suffix,
  min: board.min === null ? '' : String(board.min),
  max: board.max === null ? '' : String(board.max),
});

function rangeOf(board: Leaderboard): string {
  if (board.min === null && board.max === null) {
    return 'Any';
  }
  const min = board.min === null ? '…' : formatScore(board, board.min);
  const max = board.max === null ? '…' : formatScore(board, board.max);
  return `${min} to ${max}`;
}

/**
 * The game's leaderboards in its admin page: the boards (add, change, delete) and, per board,
 * its all-time top 100 with Remove and Ban, and the banned players with Unban.
 */
export function LeaderboardsSection({ game }: { game: AdminGame }) {
  const [boards, setBoards] = useState<Leaderboard[]>([]);
  const [values, setValues] = useState<BoardValues>(EMPTY_BOARD);
  const [isEditing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Leaderboard | null>(null);
  const [moderated, setModerated] = useState<string | null>(null);
  const field = useId();

  const reload = useCallback(async () => {
    setBoards(await listAdminLeaderboards(game.id));
  }, [game.id]);

  useEffect(() => {
    const controller = new AbortController();
    listAdminLeaderboards(game.id, controller.signal).then(setBoards, (failure: unknown) => {
      if (!controller.signal.aborted) {
        setError(serverMessageOr(failure, 'Failed to load the leaderboards'));
      }
    });
    return () => controller.abort();
  }, [game.id]);

  const change = <K extends keyof BoardValues>(key: K, value: BoardValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));
    const parsed = PutLeaderboardRequest.safeParse({
      name: values.name.trim() || undefined,
      order: values.order,
      format: values.format,
      ...(values.format === 'suffix' ? { suffix: values.suffix } : {}),
      min: numberOrNull(values.min),
      max: numberOrNull(values.max),
    });
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(values.board)) {
      setError('Key: 1 to 40 letters, digits, - or _, starting with a letter or digit');
      return;
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(issue ? `${String(issue.path[0] ?? '')}: ${issue.message}` : 'Check the fields');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await putLeaderboard(game.id, values.board, parsed.data);
      await reload();
      setStatus(isEditing ? 'Leaderboard saved' : 'Leaderboard added');
      setValues(EMPTY_BOARD);
      setEditing(false);
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to save the leaderboard'));
    } finally {
      setBusy(false);
    }
  };

  const handleDelete = async () => {
    if (!deleting) {
      return;
    }
    setBusy(true);
    try {
      await deleteLeaderboard(game.id, deleting.board);
      await reload();
      setStatus(`Leaderboard ${deleting.name} deleted`);
      if (moderated === deleting.board) {
        setModerated(null);
      }
    } catch (failure) {
      setError(serverMessageOr(failure, 'Failed to delete the leaderboard'));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <div className="leaderboards-admin">
      {boards.length === 0 ? (
        <p className="admin-muted">No leaderboards yet.</p>
      ) : (
        <table className="leaderboards-admin__table">
          <caption className="visually-hidden">Leaderboards of {game.title}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Better</th>
              <th scope="col">Shown as</th>
              <th scope="col">Valid scores</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {boards.map((board) => (
              <tr key={board.board}>
                <td>
                  <code>{board.board}</code>
                </td>
                <td>{board.name}</td>
                <td>{board.order === 'desc' ? 'Higher' : 'Lower'}</td>
                <td>
                  {FORMAT_LABELS[board.format]}
                  {board.format === 'suffix' ? ` (${board.suffix})` : ''}
                </td>
                <td>{rangeOf(board)}</td>
                <td className="leaderboards-admin__actions">
                  <button
                    type="button"
                    className="button button--ghost"
                    aria-label={`Edit ${board.name}`}
                    onClick={() => {
                      setValues(valuesOfBoard(board));
                      setEditing(true);
                      setStatus(null);
                      setError(null);
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button button--ghost"
                    aria-label={`Scores of ${board.name}`}
                    aria-expanded={moderated === board.board}
                    onClick={() =>
                      setModerated((current) => (current === board.board ? null : board.board))
                    }
                  >
                    Scores
                  </button>
                  <button
                    type="button"
                    className="button button--danger"
                    aria-label={`Delete ${board.name}`}
                    onClick={() => setDeleting(board)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {moderated && game.published ? (
        <BoardScores
          key={moderated}
          gameId={game.id}
          board={boards.find((board) => board.board === moderated)}
        />
      ) : moderated ? (
        <p className="admin-muted">Scores are posted once the game is published.</p>
      ) : null}

      <form
        className="form leaderboards-admin__form"
        onSubmit={(event) => void handleSubmit(event)}
      >
        <h3>{isEditing ? `Edit ${values.board}` : 'Add a Leaderboard'}</h3>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={`${field}-key`}>Key</label>
            <input
              id={`${field}-key`}
              value={values.board}
              readOnly={isEditing}
              required
              maxLength={40}
              onChange={(event) => change('board', event.target.value)}
              aria-describedby={`${field}-key-hint`}
            />
            <p id={`${field}-key-hint`} className="form__hint">
              What the game passes to GameSDK.submitScore
            </p>
          </div>
          <div className="form__field">
            <label htmlFor={`${field}-name`}>Name</label>
            <input
              id={`${field}-name`}
              value={values.name}
              maxLength={60}
              onChange={(event) => change('name', event.target.value)}
            />
          </div>
        </div>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={`${field}-order`}>Better scores are</label>
            <select
              id={`${field}-order`}
              value={values.order}
              onChange={(event) => change('order', event.target.value === 'asc' ? 'asc' : 'desc')}
            >
              <option value="desc">Higher</option>
              <option value="asc">Lower</option>
            </select>
          </div>
          <div className="form__field">
            <label htmlFor={`${field}-format`}>Shown as</label>
            <select
              id={`${field}-format`}
              value={values.format}
              onChange={(event) => {
                const format = (['number', 'time', 'suffix'] as const).find(
                  (name) => name === event.target.value,
                );
                if (format) {
                  change('format', format);
                }
              }}
            >
              {(['number', 'time', 'suffix'] as const).map((format) => (
                <option key={format} value={format}>
                  {FORMAT_LABELS[format]}
                </option>
              ))}
            </select>
          </div>
          {values.format === 'suffix' && (
            <div className="form__field">
              <label htmlFor={`${field}-suffix`}>Suffix</label>
              <input
                id={`${field}-suffix`}
                value={values.suffix}
                maxLength={20}
                required
                onChange={(event) => change('suffix', event.target.value)}
              />
            </div>
          )}
        </div>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={`${field}-min`}>Minimum valid score</label>
            <input
              id={`${field}-min`}
              type="number"
              step="any"
              value={values.min}
              onChange={(event) => change('min', event.target.value)}
            />
          </div>
          <div className="form__field">
            <label htmlFor={`${field}-max`}>Maximum valid score</label>
            <input
              id={`${field}-max`}
              type="number"
              step="any"
              value={values.max}
              onChange={(event) => change('max', event.target.value)}
            />
          </div>
        </div>
        <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
        <p role="status" className="form__hint form__hint--ok">
          {status}
        </p>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {isEditing ? 'Save Leaderboard' : 'Add Leaderboard'}
          </button>
          {isEditing && (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setValues(EMPTY_BOARD);
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
        title="Delete leaderboard"
        message={`Delete ${deleting?.name ?? ''} with all its scores? This cannot be undone.`}
        confirmLabel="Delete Leaderboard"
        isBusy={isBusy}
        onConfirm={() => void handleDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/** A board's all-time top 100 with Remove and Ban, and its banned players. */
function BoardScores({ gameId, board }: { gameId: string; board: Leaderboard | undefined }) {
  const [entries, setEntries] = useState<PlayerScore[] | null>(null);
  const [bans, setBans] = useState<LeaderboardBan[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [banning, setBanning] = useState<PlayerScore | null>(null);
  const boardKey = board?.board ?? '';

  const reload = useCallback(async () => {
    const [top, banned] = await Promise.all([
      listScores(gameId, boardKey),
      listBans(gameId, boardKey),
    ]);
    setEntries(top);
    setBans(banned);
  }, [gameId, boardKey]);

  useEffect(() => {
    if (!boardKey) {
      return undefined;
    }
    const controller = new AbortController();
    Promise.all([
      listScores(gameId, boardKey, controller.signal),
      listBans(gameId, boardKey, controller.signal),
    ]).then(
      ([top, banned]) => {
        setEntries(top);
        setBans(banned);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) {
          setError(serverMessageOr(failure, 'Failed to load the scores'));
        }
      },
    );
    return () => controller.abort();
  }, [gameId, boardKey]);

  const act = async (action: () => Promise<void>, done: string, fallback: string) => {
    setError(null);
    setStatus(null);
    try {
      await action();
      await reload();
      setStatus(done);
    } catch (failure) {
      setError(serverMessageOr(failure, fallback));
    }
  };

  if (!board) {
    return null;
  }
  return (
    <div className="leaderboards-admin__scores">
      <h3>{`Scores of ${board.name} (all time)`}</h3>
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
      <p role="status" className="form__hint form__hint--ok">
        {status}
      </p>
      {entries === null ? (
        <p className="admin-muted">Loading...</p>
      ) : entries.length === 0 ? (
        <p className="admin-muted">No scores yet.</p>
      ) : (
        <table className="leaderboards-admin__table">
          <caption className="visually-hidden">{`Scores of ${board.name}`}</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col">Score</th>
              <th scope="col">When</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.userId}>
                <td>{entry.rank}</td>
                <td>{entry.username}</td>
                <td>{entry.display}</td>
                <td>{new Date(entry.achievedAt).toLocaleString()}</td>
                <td className="leaderboards-admin__actions">
                  <button
                    type="button"
                    className="button button--ghost"
                    aria-label={`Remove the score of ${entry.username}`}
                    onClick={() =>
                      void act(
                        () => removeScore(gameId, boardKey, entry.userId),
                        `Score of ${entry.username} removed`,
                        'Failed to remove the score',
                      )
                    }
                  >
                    Remove
                  </button>
                  <button
                    type="button"
                    className="button button--danger"
                    aria-label={`Ban ${entry.username} from ${board.name}`}
                    onClick={() => setBanning(entry)}
                  >
                    Ban
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {bans.length > 0 && (
        <>
          <h4>Banned players</h4>
          <ul className="leaderboards-admin__bans">
            {bans.map((ban) => (
              <li key={ban.userId}>
                {`${ban.username} (by ${ban.bannedBy}, ${new Date(ban.bannedAt).toLocaleDateString()}) `}
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Unban ${ban.username}`}
                  onClick={() =>
                    void act(
                      () => unbanPlayer(gameId, boardKey, ban.userId),
                      `${ban.username} may post scores again`,
                      'Failed to unban the player',
                    )
                  }
                >
                  Unban
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        isOpen={banning !== null}
        title="Ban player"
        message={`Ban ${banning?.username ?? ''} from ${board.name}? Their scores are removed and new ones refused.`}
        confirmLabel="Ban Player"
        onConfirm={() => {
          const entry = banning;
          setBanning(null);
          if (entry) {
            void act(
              () => banPlayer(gameId, boardKey, entry.userId),
              `${entry.username} banned from ${board.name}`,
              'Failed to ban the player',
            );
          }
        }}
        onCancel={() => setBanning(null)}
      />
    </div>
  );
}
