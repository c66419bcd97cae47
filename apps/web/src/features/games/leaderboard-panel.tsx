import { useCallback, useId, useMemo, useState } from 'react';

import {
  LEADERBOARD_PERIOD_NAMES,
  LEADERBOARD_PERIODS,
  type Leaderboard,
  type LeaderboardPeriod,
} from '@portfolio/types/leaderboards';

import { useResource, warnOnFailure } from '../../ui/use-resource';
import { useAuthStore } from '../auth';
import { getLeaderboard, listLeaderboards } from './games-api';

/** Rows the viewer shows of a board. */
const SHOWN_ROWS = 10;
const BOARD_ERROR = 'The leaderboard could not be loaded.';
const NO_BOARDS: Leaderboard[] = [];

/** The last score the game posted: its board, and a count that grows with every score. */
export interface ScoredBoard {
  board: string;
  version: number;
}

/**
 * A game's leaderboards under its frame: one board at a time, by period (UTC calendar), the top
 * ten and, for a signed-in player outside them, their own rank. Shown only when the game has
 * boards; read again when the game posts a score, and turned to that score's board (until the
 * player picks another).
 */
export function LeaderboardPanel({
  gameId,
  scored,
}: {
  gameId: string;
  scored: ScoredBoard | null;
}) {
  const userId = useAuthStore((state) => state.user?.id);
  const loadBoards = useCallback(
    (signal: AbortSignal) =>
      warnOnFailure(listLeaderboards(gameId, signal), 'Could not read the leaderboards', signal),
    [gameId],
  );
  // a failed read leaves the boards as they were (none at first: the panel is an extra)
  const boards =
    useResource(loadBoards, BOARD_ERROR, { isKeptWhileLoading: true }).data ?? NO_BOARDS;
  /** The player's own pick, and how many scores had been posted when they made it. */
  const [chosen, setChosen] = useState<ScoredBoard | null>(null);
  const version = scored?.version ?? 0;
  const wanted =
    scored && (!chosen || scored.version > chosen.version) ? scored.board : chosen?.board;
  const boardKey = boards.find((board) => board.board === wanted)?.board ?? boards[0]?.board ?? '';
  const [period, setPeriod] = useState<LeaderboardPeriod>('all');
  const headingId = useId();
  const selectId = useId();

  const loadBoard = useMemo(() => {
    if (!boardKey) {
      return null;
    }
    return async (signal: AbortSignal) => {
      const reads = [
        getLeaderboard(gameId, boardKey, { period, limit: SHOWN_ROWS }, signal),
        userId
          ? getLeaderboard(gameId, boardKey, { period, around: 'me', limit: 1 }, signal)
          : Promise.resolve(null),
      ] as const;
      const [top, mine] = await warnOnFailure(
        Promise.all(reads),
        'Could not read the leaderboard',
        signal,
      );
      return { top, mine };
    };
  }, [gameId, boardKey, period, userId]);
  // read again after each score the game posts; the table stays meanwhile
  const shown = useResource(loadBoard, BOARD_ERROR, {
    reloadKey: version,
    isKeptWhileLoading: true,
  });
  const error = shown.error ? BOARD_ERROR : '';
  const top = shown.data?.top ?? null;
  const mine = shown.data?.mine ?? null;

  if (boards.length === 0) {
    return null;
  }
  const board = boards.find((candidate) => candidate.board === boardKey) ?? boards[0];
  const me = mine?.me ?? null;
  const isMeShown = me !== null && top?.entries.some((entry) => entry.you === true);

  return (
    <section className="leaderboard-panel" aria-labelledby={headingId}>
      <div className="leaderboard-panel__head">
        <h2 id={headingId}>Leaderboards</h2>
        {boards.length > 1 && (
          <div className="leaderboard-panel__board">
            <label htmlFor={selectId}>Board</label>
            <select
              id={selectId}
              value={boardKey}
              onChange={(event) => setChosen({ board: event.target.value, version })}
            >
              {boards.map((candidate) => (
                <option key={candidate.board} value={candidate.board}>
                  {candidate.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <div className="leaderboard-panel__periods" role="group" aria-label="Period">
        {LEADERBOARD_PERIODS.map((candidate) => (
          <button
            key={candidate}
            type="button"
            className="button button--ghost"
            aria-pressed={period === candidate}
            onClick={() => setPeriod(candidate)}
          >
            {LEADERBOARD_PERIOD_NAMES[candidate]}
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert">{error}</p>
      ) : top && top.entries.length === 0 ? (
        <p className="leaderboard-panel__empty">{emptyText(period)}</p>
      ) : top ? (
        <table className="leaderboard-panel__table">
          <caption>
            {`${board?.name ?? ''}: ${LEADERBOARD_PERIOD_NAMES[period]} (${top.total} ${
              top.total === 1 ? 'player' : 'players'
            })`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {top.entries.map((entry) => (
              <tr key={entry.username} className={entry.you ? 'leaderboard-panel__me' : undefined}>
                <td>{entry.rank}</td>
                <td>
                  {entry.username}
                  {entry.you ? ' (you)' : ''}
                </td>
                <td>{entry.display}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="leaderboard-panel__empty">Loading...</p>
      )}
      {me && !isMeShown && (
        <p className="leaderboard-panel__mine">{`Your rank: #${me.rank} (${me.display})`}</p>
      )}
    </section>
  );
}

function emptyText(period: LeaderboardPeriod): string {
  return period === 'all'
    ? 'No scores yet.'
    : `No scores ${LEADERBOARD_PERIOD_NAMES[period].toLowerCase()}.`;
}
