import type { DailyStat, VisitorStatsResponse } from '@portfolio/types';

import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { dayKey, formatAverage } from './dashboard-format';
import { StatCards } from './stat-cards';
import { VisitorsChart } from './visitors-chart';
import { ErrorAlert } from '../../ui/error-alert';

interface AnalyticsSectionProps {
  visitorStats: VisitorStatsResponse | null;
  error: string | null;
}

function byDateAscending(a: DailyStat, b: DailyStat): number {
  return dayKey(a.date).localeCompare(dayKey(b.date));
}

/** What the averages are taken over, as said on their cards. */
export function describeAverageDays(days: number): string {
  return `per day, over the ${days} ${days === 1 ? 'day' : 'days'} with data`;
}

export function AnalyticsSection({ visitorStats, error }: AnalyticsSectionProps) {
  return (
    <section className="admin-section" aria-labelledby="analytics-title">
      <h2 id="analytics-title">30-Day Analytics Overview</h2>
      {error ? <ErrorAlert message={error} /> : null}
      {visitorStats ? (
        <Analytics visitorStats={visitorStats} />
      ) : error ? null : (
        <p className="admin-muted">Loading...</p>
      )}
    </section>
  );
}

function Analytics({ visitorStats }: { visitorStats: VisitorStatsResponse }) {
  const { summary } = visitorStats;
  const inWindow = [...visitorStats.dailyStats].sort(byDateAscending);
  // the chart and the breakdown show exactly the days the averages are taken over
  const averageDays = summary.averageDays ?? inWindow.length;
  const oldestFirst = averageDays === 0 ? [] : inWindow.slice(-averageDays);
  const newestFirst = [...oldestFirst].reverse();
  const note = describeAverageDays(averageDays);
  return (
    <>
      <StatCards
        stats={[
          { label: 'Average Daily Visitors', value: formatAverage(summary.averageTotal), note },
          {
            label: 'Average Registered',
            value: formatAverage(summary.averageAuthenticated),
            note,
          },
          { label: 'Average Anonymous', value: formatAverage(summary.averageAnonymous), note },
          { label: 'New Users This Month', value: summary.newUsers },
          { label: 'Total Registered Users', value: summary.totalUsers },
          { label: 'Peak Concurrent Users', value: summary.peakConcurrent },
        ]}
      />
      {oldestFirst.length === 0 ? (
        <p className="admin-muted">No visitor data for the last 30 days yet.</p>
      ) : (
        <>
          <div className="admin-panel">
            <h3>Daily Visitors</h3>
            <VisitorsChart days={oldestFirst} />
          </div>
          <div className="admin-panel">
            <h3 id="daily-breakdown-title">Daily Breakdown</h3>
            <ResponsiveTable labelledBy="daily-breakdown-title" isNumeric>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">New Users</th>
                  <th scope="col">Total Users</th>
                  <th scope="col">Peak Concurrent</th>
                  <th scope="col">Daily Total</th>
                </tr>
              </thead>
              <tbody>
                {newestFirst.map((day) => (
                  <tr key={day.date}>
                    <th scope="row">
                      <time dateTime={dayKey(day.date)}>{dayKey(day.date)}</time>
                    </th>
                    <Cell label="New Users">{day.new_users}</Cell>
                    <Cell label="Total Users">{day.total_users}</Cell>
                    <Cell label="Peak Concurrent">{day.peak_concurrent}</Cell>
                    <Cell label="Daily Total">{day.daily_total}</Cell>
                  </tr>
                ))}
              </tbody>
            </ResponsiveTable>
          </div>
        </>
      )}
    </>
  );
}
