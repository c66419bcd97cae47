import type { GameClickStats } from '@portfolio/types';

import { gameTitle } from './dashboard-format';

interface GameClicksSectionProps {
  gameStats: Record<string, GameClickStats> | null;
  error: string | null;
}

interface GameRow extends GameClickStats {
  gameId: string;
  title: string;
}

function toRows(gameStats: Record<string, GameClickStats>): GameRow[] {
  return Object.entries(gameStats)
    .map(([gameId, stats]) => ({ gameId, title: gameTitle(gameId), ...stats }))
    .sort((a, b) => b.totalClicks - a.totalClicks || a.title.localeCompare(b.title));
}

/** Clicks per game; the data comes with the visitor stats, so that call's error covers it. */
export function GameClicksSection({ gameStats, error }: GameClicksSectionProps) {
  return (
    <section className="admin-section" aria-labelledby="game-clicks-title">
      <h2 id="game-clicks-title">Game Click Analytics</h2>
      {gameStats ? (
        <GameClicks gameStats={gameStats} />
      ) : error ? null : (
        <p className="admin-muted">Loading...</p>
      )}
    </section>
  );
}

function GameClicks({ gameStats }: { gameStats: Record<string, GameClickStats> }) {
  const rows = toRows(gameStats);
  if (rows.length === 0) {
    return <p className="admin-muted">No game clicks recorded yet.</p>;
  }
  return (
    <div className="table-scroll" role="region" aria-labelledby="game-clicks-title" tabIndex={0}>
      <table className="data-table data-table--numeric" aria-labelledby="game-clicks-title">
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col">Total Clicks</th>
            <th scope="col">Registered Users</th>
            <th scope="col">Anonymous Users</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.gameId}>
              <th scope="row">{row.title}</th>
              <td>{row.totalClicks}</td>
              <td>{row.authenticatedClicks}</td>
              <td>{row.anonymousClicks}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
