import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';

import { displayValue } from './analytics-format';
import {
  DIMENSION_LABELS,
  toQueryString,
  withoutFilter,
  type AnalyticsState,
} from './analytics-query';

/**
 * The active filters as removable chips; each removal is a link, so Back restores it. A filter
 * added by a breakdown row far down the page brings the chips into view and takes the focus:
 * the row's link is gone with the view it was in, and the chips say what changed.
 */
export function FilterChips({ state }: { state: AnalyticsState }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const count = state.filters.length;
  const key = state.filters.map(({ dimension, value }) => `${dimension}=${value}`).join('&');
  const previousKey = useRef(key);
  useEffect(() => {
    const changed = key !== previousKey.current;
    previousKey.current = key;
    const chips = ref.current;
    // a filter added, replaced or removed by its chip (whose link is gone): focus the chips
    if (changed && chips) {
      chips.focus({ preventScroll: true });
      chips.scrollIntoView?.({ block: 'nearest' });
    }
  }, [key]);

  if (count === 0) {
    return null;
  }
  return (
    <div ref={ref} className="filter-chips" role="region" aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId} className="visually-hidden">
        Filters
      </h2>
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
