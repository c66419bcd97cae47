import { Link } from 'react-router';

import { displayValue } from './analytics-format';
import {
  DIMENSION_LABELS,
  toQueryString,
  withoutFilter,
  type AnalyticsState,
} from './analytics-query';

/** The active filters as removable chips; each removal is a link, so Back restores it. */
export function FilterChips({ state }: { state: AnalyticsState }) {
  if (state.filters.length === 0) {
    return null;
  }
  return (
    <div className="filter-chips">
      <h2 className="visually-hidden">Filters</h2>
      <ul className="filter-chips__list">
        {state.filters.map(({ dimension, value }) => {
          const text = `${DIMENSION_LABELS[dimension]}: ${displayValue(dimension, value)}`;
          return (
            <li key={dimension} className="filter-chip">
              <span className="filter-chip__text">{text}</span>
              <Link
                className="filter-chip__remove"
                to={{ search: toQueryString(withoutFilter(state, dimension)) }}
                aria-label={`Remove filter ${text}`}
              >
                <span aria-hidden="true">×</span>
              </Link>
            </li>
          );
        })}
      </ul>
      {state.filters.length > 1 ? (
        <Link
          className="filter-chips__clear"
          to={{ search: toQueryString({ ...state, filters: [] }) }}
        >
          Clear all filters
        </Link>
      ) : null}
    </div>
  );
}
