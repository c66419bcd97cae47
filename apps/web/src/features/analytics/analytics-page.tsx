import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';

import { getOverview } from './analytics-api';
import { readAnalyticsState, toQueryString, type AnalyticsState } from './analytics-query';
import { BreakdownCard, type BreakdownView } from './breakdown-card';
import { FilterChips } from './filter-chips';
import { GamesSection } from './games-section';
import { OverviewFigures } from './overview-figures';
import { PeriodPicker } from './period-picker';
import { RealtimeCard } from './realtime-card';
import { RollupFailures } from './rollup-failures';
import { TrendChart } from './trend-chart';
import { useAnalyticsData } from './use-analytics-data';
import './analytics.css';
import { ErrorAlert } from '../../ui/error-alert';

export const OVERVIEW_ERROR = 'Failed to fetch analytics overview';

/** What the Pages card counts as a page, and what its “other” row holds (collector's page-paths.ts). */
export const PAGES_NOTE =
  'Published posts, games open in the viewer (/games?play=…) and gallery projects ' +
  '(/Gallery?project=…) count as pages of their own. “other” holds the admin’s pages ' +
  'beyond the dashboard and user pages, posts that are not published (drafts, scheduled, ' +
  'removed) and addresses the site does not have.';

/** The breakdown cards, as Plausible groups them: pages, sources, locations, devices. */
const BREAKDOWNS = [
  {
    title: 'Pages',
    note: PAGES_NOTE,
    views: [
      { title: 'Top Pages', dimension: 'page', column: 'Page' },
      { title: 'Entry Pages', dimension: 'entry', column: 'Page' },
      { title: 'Exit Pages', dimension: 'exit', column: 'Page' },
    ],
  },
  {
    title: 'Sources',
    views: [
      { title: 'Referrers', dimension: 'referrer', column: 'Referrer' },
      { title: 'UTM Sources', dimension: 'utm_source', column: 'Source' },
      { title: 'UTM Mediums', dimension: 'utm_medium', column: 'Medium' },
      { title: 'UTM Campaigns', dimension: 'utm_campaign', column: 'Campaign' },
    ],
  },
  { title: 'Locations', views: [{ title: 'Countries', dimension: 'country', column: 'Country' }] },
  {
    title: 'Devices',
    views: [
      { title: 'Devices', dimension: 'device', column: 'Device' },
      { title: 'Browsers', dimension: 'browser', column: 'Browser' },
      { title: 'Operating Systems', dimension: 'os', column: 'OS' },
    ],
  },
] as const satisfies readonly { title: string; note?: string; views: readonly BreakdownView[] }[];

/**
 * /admin/analytics: the site's visitors over a period (with the period before beside each
 * figure), breakdowns whose rows filter the whole view, realtime visitors and the games. The
 * period and the filters live in the address, in the API's own query format.
 */
export function AnalyticsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { state, ignored } = readAnalyticsState(searchParams);
  const query = toQueryString(state);
  const handleChange = useCallback(
    (next: AnalyticsState) => setSearchParams(toQueryString(next)),
    [setSearchParams],
  );
  const overview = useAnalyticsData(
    `overview?${query}`,
    (signal) => getOverview(state, signal),
    OVERVIEW_ERROR,
  );

  return (
    <section className="page analytics-page" aria-labelledby="analytics-page-title">
      <header className="admin-dashboard__header">
        <h1 id="analytics-page-title">Site Analytics</h1>
        <Link to="/admin" className="button button--secondary button--small">
          Back to Dashboard
        </Link>
      </header>
      <div className="analytics-toolbar">
        <PeriodPicker
          key={`${state.period}|${state.from ?? ''}|${state.to ?? ''}`}
          state={state}
          onChange={handleChange}
        />
        <FilterChips state={state} />
      </div>
      {ignored.length > 0 ? (
        <p className="notice" role="status">
          Ignored in the address: {ignored.join(', ')}
        </p>
      ) : null}

      <section className="admin-section" aria-labelledby="analytics-overview-title">
        <h2 id="analytics-overview-title">Overview</h2>
        {overview.error ? <ErrorAlert message={overview.error} /> : null}
        {overview.data ? (
          <div aria-busy={overview.isLoading}>
            <RollupFailures failures={overview.data.rollupFailures ?? []} />
            <OverviewFigures overview={overview.data} isFiltered={state.filters.length > 0} />
            <div className="admin-panel">
              <h3>Visitors and Page Views</h3>
              <TrendChart overview={overview.data} />
            </div>
          </div>
        ) : overview.error ? null : (
          <p className="admin-muted loading-room">Loading...</p>
        )}
      </section>

      <RealtimeCard />

      <section className="admin-section" aria-labelledby="analytics-breakdowns-title">
        <h2 id="analytics-breakdowns-title">Breakdowns</h2>
        <p className="admin-muted">Follow a row to filter the whole view by it.</p>
        <div className="breakdown-grid">
          {BREAKDOWNS.map((breakdown) => (
            <BreakdownCard key={breakdown.title} {...breakdown} state={state} />
          ))}
        </div>
      </section>

      <GamesSection state={state} />
    </section>
  );
}
