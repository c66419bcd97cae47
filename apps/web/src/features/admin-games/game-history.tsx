import { readableAuditDetail } from '@portfolio/types/game-history';
import type { GameAuditEntry } from '@portfolio/types/game-host';
import { useEffect, useState } from 'react';

import { formatDateTime } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { listGameAudit } from './admin-games-api';
import { ErrorAlert } from '../../ui/error-alert';

export const HISTORY_LOAD_ERROR = 'Failed to fetch the history';

type HistoryState =
  | { kind: 'loading' }
  | { kind: 'loaded'; entries: GameAuditEntry[] }
  | { kind: 'failed'; message: string };

/**
 * The game's audit log, newest first: who changed what and when. `revision` changes with every
 * change the page makes, which loads it again.
 */
export function GameHistory({ gameId, revision }: { gameId: string; revision: string }) {
  const [state, setState] = useState<HistoryState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    listGameAudit(gameId, controller.signal).then(
      (entries) => setState({ kind: 'loaded', entries }),
      (error: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        console.warn(HISTORY_LOAD_ERROR, error);
        setState({ kind: 'failed', message: serverMessageOr(error, HISTORY_LOAD_ERROR) });
      },
    );
    return () => controller.abort();
  }, [gameId, revision]);

  if (state.kind === 'loading') {
    return <p className="admin-muted">Loading...</p>;
  }
  if (state.kind === 'failed') {
    return <ErrorAlert message={state.message} />;
  }
  if (state.entries.length === 0) {
    return <p className="admin-muted">No changes recorded.</p>;
  }
  return (
    <ul className="record-list">
      {state.entries.map((entry) => (
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
