import type { ContentAuditEntry, ContentKind } from '@portfolio/types/content';
import { useEffect, useState } from 'react';

import { listContentAudit } from './admin-content-api';

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
  const [entries, setEntries] = useState<ContentAuditEntry[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    listContentAudit(kind, itemId, controller.signal).then(setEntries, () => {
      if (!controller.signal.aborted) {
        setFailed(true);
      }
    });
    return () => controller.abort();
  }, [kind, itemId, version]);

  return (
    <section className="content-history" aria-label="History">
      <h3>History</h3>
      {failed ? <p className="alert alert--error">Failed to load the history</p> : null}
      {entries === null && !failed ? <p className="admin-muted">Loading...</p> : null}
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
