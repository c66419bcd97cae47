import { useId } from 'react';

import { REALTIME_INTERVAL_MS, getRealtime } from './analytics-api';
import { formatCount } from './analytics-format';
import { useAnalyticsData } from './use-analytics-data';
import './realtime.css';
import { ErrorAlert } from '../../ui/error-alert';

export const REALTIME_ERROR = 'Failed to fetch realtime visitors';

/**
 * Visitors of the last 5 minutes and the pages they are on, refreshed every 10 s while shown
 * (on the dashboard beside Live Activity, and on the analytics page).
 */
export function RealtimeCard({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { data, error } = useAnalyticsData(
    'realtime',
    getRealtime,
    REALTIME_ERROR,
    REALTIME_INTERVAL_MS,
  );
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const titleId = useId();
  return (
    <section className="admin-panel realtime-card" aria-labelledby={titleId}>
      <Heading id={titleId}>Realtime</Heading>
      {error ? <ErrorAlert message={error} /> : null}
      {data ? (
        <>
          <p className="realtime-card__count">
            <span className="realtime-card__dot" aria-hidden="true" />
            <strong>{formatCount(data.visitors)}</strong>{' '}
            {data.visitors === 1 ? 'visitor' : 'visitors'} in the last 5 minutes
          </p>
          {data.pages.length === 0 ? (
            <p className="admin-muted">
              {data.visitors === 0
                ? 'No pages viewed in the last 5 minutes.'
                : // the pages are where visitors are now: these have closed their tabs
                  'None of them is on a page now: their tabs are closed.'}
            </p>
          ) : (
            <div className="table-scroll">
              <table className="data-table data-table--numeric" aria-label="Realtime pages">
                <thead>
                  <tr>
                    <th scope="col">Page</th>
                    <th scope="col">Visitors</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pages.map((page) => (
                    <tr key={page.path}>
                      <th scope="row" className="breakdown-table__value">
                        <code>{page.path}</code>
                      </th>
                      <td>{formatCount(page.visitors)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : error ? null : (
        <p className="admin-muted">Loading...</p>
      )}
    </section>
  );
}
