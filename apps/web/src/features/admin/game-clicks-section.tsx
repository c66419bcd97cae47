import { findGame, type GameClickStats } from '@portfolio/types';
import { useEffect } from 'react';

import { useAdminGamesStore } from '../admin-games';
import { gameTitle } from './dashboard-format';

import { Cell, ResponsiveTable } from '../../ui/responsive-table';

interface GameClicksSectionProps {
  gameStats: Record<string, GameClickStats> | null;
  error: string | null;
}

interface GameRow extends GameClickStats {
  gameId: string;
  title: string;
}

function toRows(
  gameStats: Record<string, GameClickStats>,
  titles: ReadonlyMap<string, string>,
): GameRow[] {
  return Object.entries(gameStats)
    .map(([gameId, stats]) => ({ gameId, title: gameTitle(gameId, titles), ...stats }))
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
  const games = useAdminGamesStore((state) => state.games);
  const loadGames = useAdminGamesStore((state) => state.load);
  // a game the owner added is named by the database catalogue (GET /api/admin/games), asked for
  // only when a clicked game is not a built-in one
  const needsCatalogue = Object.keys(gameStats).some((gameId) => !findGame(gameId));
  useEffect(() => {
    if (needsCatalogue && games === null) {
      void loadGames();
    }
  }, [needsCatalogue, games, loadGames]);
  const titles = new Map((games ?? []).map((game) => [game.id, game.title]));
  const rows = toRows(gameStats, titles);
  if (rows.length === 0) {
    return <p className="admin-muted">No game clicks recorded yet.</p>;
  }
  return (
    <ResponsiveTable labelledBy="game-clicks-title" isNumeric>
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
            <Cell label="Total Clicks">{row.totalClicks}</Cell>
            <Cell label="Registered Users">{row.authenticatedClicks}</Cell>
            <Cell label="Anonymous Users">{row.anonymousClicks}</Cell>
          </tr>
        ))}
      </tbody>
    </ResponsiveTable>
  );
}
