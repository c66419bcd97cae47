import type { AnalyticsGames, FunnelStep } from '@portfolio/types/analytics';
import { useId } from 'react';

import { gamesCsvUrl, getGames } from './analytics-api';
import { formatCount, formatSeconds, formatShare } from './analytics-format';
import { toQueryString, type AnalyticsState } from './analytics-query';
import { CsvLink } from './csv-link';
import { useAnalyticsData } from './use-analytics-data';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { ErrorAlert } from '../../ui/error-alert';

export const GAMES_ERROR = 'Failed to fetch game analytics';

const STEP_LABELS: Record<FunnelStep['step'], string> = {
  visit: 'Visit',
  'game-click': 'Game click',
  'sign-up': 'Sign-up',
  subscription: 'Subscription',
};

/** Per game play figures and the visit → subscription funnel of the period. */
export function GamesSection({ state }: { state: AnalyticsState }) {
  const { data, error, isLoading } = useAnalyticsData(
    `games?${toQueryString(state)}`,
    (signal) => getGames(state, signal),
    GAMES_ERROR,
  );
  return (
    <section
      className="admin-section"
      aria-labelledby="analytics-games-title"
      aria-busy={isLoading}
    >
      <h2 id="analytics-games-title">Games</h2>
      {error ? <ErrorAlert message={error} /> : null}
      {data ? (
        <Games games={data} state={state} />
      ) : error ? null : (
        <p className="admin-muted">Loading...</p>
      )}
    </section>
  );
}

function Games({ games, state }: { games: AnalyticsGames; state: AnalyticsState }) {
  const tableTitleId = useId();
  const funnelTitleId = useId();
  return (
    <div className="analytics-games">
      <div className="admin-panel">
        <div className="breakdown-card__header">
          <h3 id={tableTitleId}>Plays by Game</h3>
          <CsvLink href={gamesCsvUrl(state)} what="Plays by Game" />
        </div>
        {games.games.length === 0 ? (
          <p className="admin-muted">No game activity in this period.</p>
        ) : (
          // on a phone each game is a block of labelled lines: no column squeezed or cut off
          <ResponsiveTable labelledBy={tableTitleId} isNumeric>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Clicks</th>
                <th scope="col">Locked Clicks</th>
                <th scope="col">Plays</th>
                <th scope="col">Play Time</th>
                <th scope="col">Average Session</th>
                <th scope="col">Playing Now</th>
              </tr>
            </thead>
            <tbody>
              {games.games.map((game) => (
                <tr key={game.gameId}>
                  <th scope="row" className="breakdown-table__value">
                    {game.title}
                  </th>
                  <Cell label="Clicks">{formatCount(game.clicks)}</Cell>
                  <Cell label="Locked Clicks">{formatCount(game.lockedClicks)}</Cell>
                  <Cell label="Plays">{formatCount(game.plays)}</Cell>
                  <Cell label="Play Time">{formatSeconds(game.playSeconds)}</Cell>
                  <Cell label="Average Session">{formatSeconds(game.averagePlaySeconds)}</Cell>
                  <Cell label="Playing Now">{formatCount(game.playingNow)}</Cell>
                </tr>
              ))}
            </tbody>
          </ResponsiveTable>
        )}
      </div>
      <div className="admin-panel">
        <h3 id={funnelTitleId}>Funnel</h3>
        <Funnel steps={games.funnel} titleId={funnelTitleId} />
      </div>
    </div>
  );
}

function Funnel({ steps, titleId }: { steps: readonly FunnelStep[]; titleId: string }) {
  const first = Math.max(1, steps[0]?.count ?? 0);
  return (
    <ol className="funnel" aria-labelledby={titleId}>
      {steps.map((step, index) => (
        <li key={step.step} className="funnel__step">
          <div className="funnel__label">
            <span className="funnel__name">{STEP_LABELS[step.step]}</span>
            <span className="funnel__count">{formatCount(step.count)}</span>
          </div>
          <span
            className="funnel__bar"
            style={{ width: `${Math.max((step.count / first) * 100, step.count > 0 ? 1 : 0)}%` }}
            aria-hidden="true"
          />
          {index > 0 ? (
            <span className="funnel__drop">{formatShare(step.dropOff)} drop-off</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
