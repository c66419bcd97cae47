import type { ContentKind } from '@portfolio/types/content';
import { useCallback } from 'react';

import { useResource } from '../../ui/use-resource';
import { listContentAudit } from './admin-content-api';

const HISTORY_ERROR = 'Failed to load the history';

/** An item's changes, newest first: when, who and what (from the content's audit log). */
export function ContentHistory({
  kind,
  itemId,
  version,
}: {
  kind: ContentKind;
  /** One item's changes; the whole kind's without one (the site's texts). */
  itemId?: string;
  /** Read again when this changes (after each save). */
  version: string;
}) {
  const load = useCallback(
    (signal: AbortSignal) => listContentAudit(kind, itemId, signal),
    [kind, itemId],
  );
  // the last history stays on screen while the next one loads
  const { data: entries, error } = useResource(load, HISTORY_ERROR, {
    reloadKey: version,
    isKeptWhileLoading: true,
  });

  return (
    <section className="content-history" aria-label="History">
      <h3>History</h3>
      {/* the page's own words, whatever the server said */}
      {error ? <p className="alert alert--error">{HISTORY_ERROR}</p> : null}
      {entries === undefined && !error ? <p className="admin-muted">Loading...</p> : null}
      {entries?.length === 0 ? <p className="admin-muted">No changes recorded.</p> : null}
      {entries && entries.length > 0 ? (
        <ul className="content-history__list">
          {entries.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>{' '}
              <strong>{entry.actorUsername}</strong>: {entry.detail}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
