import type { AnalyticsOverview, AnalyticsTotals } from '@portfolio/types/analytics';

import { describeChange, formatCount, formatSeconds, formatShare } from './analytics-format';

interface Figure {
  label: string;
  key: keyof AnalyticsTotals;
  format: (value: number) => string;
  /** For the bounce rate, down is good. */
  isLowerBetter?: boolean;
}

const FIGURES: readonly Figure[] = [
  { label: 'Unique Visitors', key: 'visitors', format: formatCount },
  { label: 'Visits', key: 'visits', format: formatCount },
  { label: 'Page Views', key: 'pageviews', format: formatCount },
  { label: 'Bounce Rate', key: 'bounceRate', format: formatShare, isLowerBetter: true },
  { label: 'Visit Duration', key: 'visitSeconds', format: formatSeconds },
  { label: 'Bots Filtered', key: 'bots', format: formatCount },
];

/**
 * A bot has no page view, browser, device or source to filter by (nothing of it is known but the
 * hit), so its count is always the whole site's: under filters it says so.
 */
export const BOTS_UNFILTERED_LABEL = 'Bots Filtered (all traffic)';

/** The period's totals, each with the previous period's figure and the change beside it. */
export function OverviewFigures({
  overview,
  isFiltered = false,
}: {
  overview: AnalyticsOverview;
  /** Filters are on: every figure follows them but the bots'. */
  isFiltered?: boolean;
}) {
  const { totals, previousTotals, previousRange } = overview;
  const figures = FIGURES.map((figure) =>
    figure.key === 'bots' && isFiltered ? { ...figure, label: BOTS_UNFILTERED_LABEL } : figure,
  );
  return (
    <dl className="stat-grid analytics-figures">
      {figures.map((figure) => {
        const current = totals[figure.key];
        const previous = previousTotals[figure.key];
        const change = describeChange(current, previous);
        const tone =
          change.direction === 'flat'
            ? 'flat'
            : (change.direction === 'up') !== Boolean(figure.isLowerBetter)
              ? 'good'
              : 'bad';
        return (
          <div key={figure.key} className="stat-card">
            <dt className="stat-card__label">{figure.label}</dt>
            <dd className="stat-card__value">{figure.format(current)}</dd>
            <dd className="analytics-figures__previous">
              <span className={`analytics-change analytics-change--${tone}`}>{change.text}</span>{' '}
              <span>
                vs {figure.format(previous)}
                <span className="visually-hidden">
                  {' '}
                  from {previousRange.from} to {previousRange.to}
                </span>
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
