import { readableAuditDetail } from '@portfolio/types/game-history';
import { useCallback } from 'react';

import { formatDateTime } from '../../lib/format';
import { listGameAudit } from './admin-games-api';
import { ErrorAlert } from '../../ui/error-alert';
import { useResource, warnOnFailure } from '../../ui/use-resource';

export const HISTORY_LOAD_ERROR = 'Failed to fetch the history';

/**
 * The game's audit log, newest first: who changed what and when. `revision` changes with every
 * change the page makes, which loads it again (the last log stays on screen meanwhile).
 */
export function GameHistory({ gameId, revision }: { gameId: string; revision: string }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      warnOnFailure(listGameAudit(gameId, signal), HISTORY_LOAD_ERROR, signal),
    [gameId],
  );
  const { data: entries, error } = useResource(load, HISTORY_LOAD_ERROR, {
    reloadKey: revision,
    isKeptWhileLoading: true,
  });

  if (error) {
    return <ErrorAlert message={error} />;
  }
  if (!entries) {
    return <p className="admin-muted">Loading...</p>;
  }
  if (entries.length === 0) {
    return <p className="admin-muted">No changes recorded.</p>;
  }
  return (
    <ul className="record-list">
      {entries.map((entry) => (
        <li key={entry.id} className="record-list__item">
          <time className="admin-muted" dateTime={entry.at}>
            {formatDateTime(entry.at)}
          </time>{' '}
          {entry.actorUsername}: {readableAuditDetail(entry.detail)}
        </li>
      ))}
    </ul>
  );
}
