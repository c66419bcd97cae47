import { type FormEvent, useCallback, useState } from 'react';

import type { AdminGame } from '@portfolio/types/game-host';
import {
  formatScore,
  type Leaderboard,
  PutLeaderboardRequest,
} from '@portfolio/types/leaderboards';

import { issueSentence } from '../../lib/zod-issues';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useResource } from '../../ui/use-resource';
import { deleteLeaderboard, listAdminLeaderboards, putLeaderboard } from './admin-games-api';
import { BoardScores } from './board-scores';
import {
  BoardFields,
  type BoardValues,
  EMPTY_BOARD,
  FORMAT_LABELS,
  valuesOfBoard,
} from './leaderboard-form';
import {
  EditorActions,
  SectionMessages,
  useEntryEditor,
  useSectionCommands,
} from './section-editor';

function rangeOf(board: Leaderboard): string {
  if (board.min === null && board.max === null) {
    return 'Any';
  }
  const min = board.min === null ? '…' : formatScore(board, board.min);
  const max = board.max === null ? '…' : formatScore(board, board.max);
  return `${min} to ${max}`;
}

/** The board form's values as the request, or the sentence that says what is wrong. */
function requestOf(values: BoardValues): { body: PutLeaderboardRequest } | { problem: string } {
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
    return { problem: 'Key: 1 to 40 letters, digits, - or _, starting with a letter or digit' };
  }
  if (!parsed.success) {
    return {
      problem: issueSentence(parsed.error.issues, {
        separator: ': ',
        fallback: 'Check the fields',
      }),
    };
  }
  return { body: parsed.data };
}

/**
 * The game's leaderboards in its admin page: the boards (add, change, delete) and, per board,
 * its all-time top 100 with Remove and Ban, and the banned players with Unban.
 */
export function LeaderboardsSection({ game }: { game: AdminGame }) {
  const load = useCallback(
    (signal: AbortSignal) => listAdminLeaderboards(game.id, signal),
    [game.id],
  );
  const resource = useResource(load, 'Failed to load the leaderboards');
  const boards = resource.data ?? [];
  const editor = useEntryEditor(EMPTY_BOARD);
  const { values, isEditing } = editor;
  const commands = useSectionCommands(resource.reload);
  const [isBusy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Leaderboard | null>(null);
  const [moderated, setModerated] = useState<string | null>(null);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    commands.setStatus(null);
    const checked = requestOf(values);
    if ('problem' in checked) {
      commands.setError(checked.problem);
      return;
    }
    setBusy(true);
    const isSaved = await commands.run(
      () => putLeaderboard(game.id, values.board, checked.body),
      isEditing ? 'Leaderboard saved' : 'Leaderboard added',
      'Failed to save the leaderboard',
    );
    if (isSaved) {
      editor.reset();
    }
    setBusy(false);
  };

  const handleDelete = async () => {
    if (!deleting) {
      return;
    }
    setBusy(true);
    const isDeleted = await commands.run(
      () => deleteLeaderboard(game.id, deleting.board),
      `Leaderboard ${deleting.name} deleted`,
      'Failed to delete the leaderboard',
    );
    if (isDeleted && moderated === deleting.board) {
      setModerated(null);
    }
    setBusy(false);
    setDeleting(null);
  };

  return (
    <div className="leaderboards-admin">
      <BoardsTable
        game={game}
        boards={boards}
        moderated={moderated}
        onEdit={(board) => {
          editor.fill(valuesOfBoard(board), true);
          commands.setStatus(null);
          commands.setError(null);
        }}
        onScores={(board) => setModerated((current) => (current === board ? null : board))}
        onDelete={setDeleting}
      />

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
        <BoardFields values={values} isEditing={isEditing} change={editor.change} />
        <SectionMessages error={commands.error ?? resource.error} status={commands.status} />
        <EditorActions
          noun="Leaderboard"
          isEditing={isEditing}
          isBusy={isBusy}
          onCancel={editor.reset}
        />
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

interface BoardsTableProps {
  game: AdminGame;
  boards: readonly Leaderboard[];
  /** The board whose scores are open. */
  moderated: string | null;
  onEdit: (board: Leaderboard) => void;
  onScores: (board: string) => void;
  onDelete: (board: Leaderboard) => void;
}

/** The game's boards, each with Edit, Scores and Delete. */
function BoardsTable({ game, boards, moderated, onEdit, onScores, onDelete }: BoardsTableProps) {
  if (boards.length === 0) {
    return <p className="admin-muted">No leaderboards yet.</p>;
  }
  return (
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
                onClick={() => onEdit(board)}
              >
                Edit
              </button>
              <button
                type="button"
                className="button button--ghost"
                aria-label={`Scores of ${board.name}`}
                aria-expanded={moderated === board.board}
                onClick={() => onScores(board.board)}
              >
                Scores
              </button>
              <button
                type="button"
                className="button button--danger"
                aria-label={`Delete ${board.name}`}
                onClick={() => onDelete(board)}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
