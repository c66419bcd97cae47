import type { AnalyticsOverview, AnalyticsRange } from '@portfolio/types/analytics';
import { useId } from 'react';

import { niceMax, useMeasuredWidth, X_LABEL_SLOT } from '../../ui/chart';
import { formatCount } from './analytics-format';

const HEIGHT = 260;
// right: room for half of the last x label, centred on the last point
const MARGIN = { top: 16, right: 24, bottom: 36, left: 52 };
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

type Granularity = AnalyticsRange['granularity'];

/** A bucket's start as a short label: '14:00', 'Mar 7' or 'Mar 2026' (all UTC). */
export function formatBucket(bucket: string, granularity: Granularity): string {
  const date = new Date(bucket.length === 10 ? `${bucket}T00:00:00Z` : bucket);
  if (Number.isNaN(date.getTime())) {
    return bucket;
  }
  if (granularity === 'hour') {
    return `${String(date.getUTCHours()).padStart(2, '0')}:00`;
  }
  return date.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    ...(granularity === 'month' ? { year: 'numeric' } : { day: 'numeric' }),
  });
}

function linePath(
  values: readonly number[],
  x: (index: number) => number,
  y: (v: number) => number,
) {
  return values
    .map(
      (value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`,
    )
    .join(' ');
}

/**
 * Visitors and page views per bucket as lines, with the previous period's visitors dashed
 * behind them; the same figures are in a table below the chart for screen readers and phones.
 */
export function TrendChart({ overview }: { overview: AnalyticsOverview }) {
  const titleId = useId();
  const descId = useId();
  // drawn at the figure's own width, so its text keeps its size on a phone
  const { ref, width } = useMeasuredWidth();
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const { series, previousSeries, range } = overview;
  const visitors = series.map((point) => point.visitors);
  const pageviews = series.map((point) => point.pageviews);
  const previousVisitors = previousSeries.slice(0, series.length).map((point) => point.visitors);
  const max = niceMax(Math.max(0, ...visitors, ...pageviews, ...previousVisitors));
  const step = plotWidth / Math.max(series.length - 1, 1);
  const x = (index: number) => MARGIN.left + (series.length === 1 ? plotWidth / 2 : index * step);
  const y = (value: number) => MARGIN.top + PLOT_HEIGHT - (value / max) * PLOT_HEIGHT;
  const maxXLabels = Math.max(2, Math.floor(plotWidth / X_LABEL_SLOT));
  const labelEvery = Math.max(Math.ceil(series.length / maxXLabels), 1);
  const totalVisitors = overview.totals.visitors;
  const totalPageviews = overview.totals.pageviews;

  return (
    <figure className="trend-chart" ref={ref}>
      <svg
        className="chart__svg"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
      >
        <title id={titleId}>Visitors and page views</title>
        <desc id={descId}>
          {`From ${range.from} to ${range.to} by ${range.granularity}: ${formatCount(totalVisitors)} visitors and ${formatCount(totalPageviews)} page views; the previous period's visitors dashed.`}
        </desc>
        {[0, max / 2, max].map((tick) => (
          <g key={tick} className="chart__tick">
            <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
              {Number.isInteger(tick) ? formatCount(tick) : tick.toFixed(1)}
            </text>
          </g>
        ))}
        {series.map((point, index) =>
          (series.length - 1 - index) % labelEvery === 0 ? (
            <text
              key={point.bucket}
              className="chart__x-label"
              x={x(index)}
              y={MARGIN.top + PLOT_HEIGHT + 20}
              textAnchor="middle"
            >
              {formatBucket(point.bucket, range.granularity)}
            </text>
          ) : null,
        )}
        <line
          className="chart__axis"
          x1={MARGIN.left}
          x2={width - MARGIN.right}
          y1={MARGIN.top + PLOT_HEIGHT}
          y2={MARGIN.top + PLOT_HEIGHT}
        />
        {previousVisitors.length > 0 ? (
          <path
            className="trend-chart__line trend-chart__line--previous"
            d={linePath(previousVisitors, x, y)}
          />
        ) : null}
        <path
          className="trend-chart__line trend-chart__line--pageviews"
          d={linePath(pageviews, x, y)}
        />
        <path
          className="trend-chart__line trend-chart__line--visitors"
          d={linePath(visitors, x, y)}
        />
        {series.length <= 31
          ? series.map((point, index) => (
              <circle
                key={point.bucket}
                className="trend-chart__dot"
                cx={x(index)}
                cy={y(point.visitors)}
                r={3}
              >
                <title>
                  {`${formatBucket(point.bucket, range.granularity)}: ${formatCount(point.visitors)} visitors, ${formatCount(point.pageviews)} page views`}
                </title>
              </circle>
            ))
          : null}
      </svg>
      <figcaption className="chart__legend">
        <span className="trend-chart__key trend-chart__key--visitors">Visitors</span>
        <span className="trend-chart__key trend-chart__key--pageviews">Page views</span>
        <span className="trend-chart__key trend-chart__key--previous">Previous period</span>
      </figcaption>
      <details className="trend-chart__data">
        <summary>Chart data</summary>
        <div className="table-scroll">
          <table className="data-table data-table--numeric">
            <caption className="visually-hidden">
              Visitors and page views by {range.granularity}
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  {range.granularity === 'hour'
                    ? 'Hour'
                    : range.granularity === 'day'
                      ? 'Day'
                      : 'Month'}
                </th>
                <th scope="col">Visitors</th>
                <th scope="col">Page views</th>
              </tr>
            </thead>
            <tbody>
              {series.map((point) => (
                <tr key={point.bucket}>
                  <th scope="row">{formatBucket(point.bucket, range.granularity)}</th>
                  <td>{formatCount(point.visitors)}</td>
                  <td>{formatCount(point.pageviews)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
