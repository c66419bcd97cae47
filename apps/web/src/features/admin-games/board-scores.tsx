import { useCallback, useState } from 'react';

import type { Leaderboard, PlayerScore } from '@portfolio/types/leaderboards';

import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useResource } from '../../ui/use-resource';
import { banPlayer, listBans, listScores, removeScore, unbanPlayer } from './admin-games-api';
import { SectionMessages, useSectionCommands } from './section-editor';

interface BoardScoresProps {
  gameId: string;
  board: Leaderboard | undefined;
}

/** A board's all-time top 100 with Remove and Ban, and its banned players. */
export function BoardScores({ gameId, board }: BoardScoresProps) {
  const [banning, setBanning] = useState<PlayerScore | null>(null);
  const boardKey = board?.board ?? '';
  const load = useCallback(
    async (signal: AbortSignal) => {
      const [top, bans] = await Promise.all([
        listScores(gameId, boardKey, signal),
        listBans(gameId, boardKey, signal),
      ]);
      return { entries: top, bans };
    },
    [gameId, boardKey],
  );
  const scores = useResource(boardKey ? load : null, 'Failed to load the scores');
  const { error, status, run } = useSectionCommands(scores.reload);

  if (!board) {
    return null;
  }
  const entries = scores.data?.entries ?? null;
  const bans = scores.data?.bans ?? [];
  return (
    <div className="leaderboards-admin__scores">
      <h3>{`Scores of ${board.name} (all time)`}</h3>
      <SectionMessages error={error ?? scores.error} status={status} />
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
                      void run(
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
                    void run(
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
            void run(
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
