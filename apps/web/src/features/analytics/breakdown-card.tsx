import type { AnalyticsBreakdown, AnalyticsDimension } from '@portfolio/types/analytics';
import { useId, useState } from 'react';
import { Link } from 'react-router';

import { breakdownCsvUrl, getBreakdown } from './analytics-api';
import { displayValue, formatCount, formatSeconds } from './analytics-format';
import {
  DIMENSION_LABELS,
  filterValue,
  toQueryString,
  withFilter,
  type AnalyticsState,
} from './analytics-query';
import { CsvLink } from './csv-link';
import { useAnalyticsData } from './use-analytics-data';
import { ErrorAlert } from '../../ui/error-alert';

export const BREAKDOWN_ERROR = 'Failed to fetch analytics';

export interface BreakdownView {
  /** The table's name, e.g. 'Top Pages'. */
  title: string;
  dimension: AnalyticsDimension;
  /** Heading of the value column. */
  column: string;
}

interface BreakdownCardProps {
  /** The card's heading, e.g. 'Pages'. */
  title: string;
  /** The breakdowns the card switches between (one shows at a time, the first at start). */
  views: readonly BreakdownView[];
  /** What the card's values mean (what counts as a page, what "other" holds). */
  note?: string;
  state: AnalyticsState;
}

/**
 * A card of related breakdowns (pages: top, entry, exit), one shown at a time as a table whose
 * rows filter the whole view when followed, with its CSV export. Only the shown one is fetched.
 */
export function BreakdownCard({ title, views, note, state }: BreakdownCardProps) {
  const [selected, setSelected] = useState(0);
  const titleId = useId();
  const noteId = useId();
  const view = views[selected] ?? views[0];
  if (!view) {
    return null;
  }
  return (
    <section
      className="admin-panel breakdown-card"
      aria-labelledby={titleId}
      aria-describedby={note ? noteId : undefined}
    >
      <div className="breakdown-card__header">
        <h3 id={titleId}>{title}</h3>
        <CsvLink href={breakdownCsvUrl(view.dimension, state)} what={view.title} />
      </div>
      {views.length > 1 ? (
        <div className="breakdown-card__views" role="group" aria-label={`${title} breakdowns`}>
          {views.map((option, index) => (
            <button
              key={option.dimension}
              type="button"
              className="breakdown-card__view"
              aria-pressed={index === selected}
              onClick={() => setSelected(index)}
            >
              {option.title}
            </button>
          ))}
        </div>
      ) : null}
      <BreakdownData key={view.dimension} view={view} state={state} />
      {note ? (
        <p id={noteId} className="admin-muted breakdown-card__note">
          {note}
        </p>
      ) : null}
    </section>
  );
}

function BreakdownData({ view, state }: { view: BreakdownView; state: AnalyticsState }) {
  const { dimension } = view;
  const { data, error, isLoading } = useAnalyticsData(
    `${dimension}?${toQueryString(state)}`,
    (signal) => getBreakdown(dimension, state, signal),
    BREAKDOWN_ERROR,
  );
  return (
    <div aria-busy={isLoading}>
      {error ? <ErrorAlert message={error} /> : null}
      {data ? (
        <BreakdownTable breakdown={data} view={view} state={state} />
      ) : error ? null : (
        <p className="admin-muted">Loading...</p>
      )}
    </div>
  );
}

function BreakdownTable({
  breakdown,
  view,
  state,
}: {
  breakdown: AnalyticsBreakdown;
  view: BreakdownView;
  state: AnalyticsState;
}) {
  const { dimension, column, title } = view;
  if (breakdown.rows.length === 0) {
    return <p className="admin-muted">No data for this period.</p>;
  }
  const hasTime = breakdown.rows.some((row) => row.timeSeconds !== undefined);
  const most = Math.max(1, ...breakdown.rows.map((row) => row.visitors));
  const active = filterValue(state, dimension);
  return (
    <div className="table-scroll">
      <table className="data-table data-table--numeric breakdown-table" aria-label={title}>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col">Visitors</th>
            <th scope="col" className="col--secondary">
              Page views
            </th>
            {hasTime ? (
              <th scope="col" className="col--secondary">
                Time on page
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {breakdown.rows.map((row) => {
            const label = displayValue(dimension, row.value);
            const isActive = active === row.value;
            return (
              <tr key={row.value}>
                <th scope="row" className="breakdown-table__value">
                  <span
                    className="breakdown-table__bar"
                    style={{ width: `${(row.visitors / most) * 100}%` }}
                    aria-hidden="true"
                  />
                  <Link
                    to={{ search: toQueryString(withFilter(state, dimension, row.value)) }}
                    title={`Filter by ${DIMENSION_LABELS[dimension]}: ${label}`}
                    aria-current={isActive ? 'true' : undefined}
                  >
                    {label}
                  </Link>
                </th>
                <td>{formatCount(row.visitors)}</td>
                <td className="col--secondary">{formatCount(row.pageviews)}</td>
                {hasTime ? (
                  <td className="col--secondary">
                    {row.timeSeconds === undefined ? '' : formatSeconds(row.timeSeconds)}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
