import type { DailyStat, VisitorStatsResponse } from '@portfolio/types';

import { dayKey, formatAverage } from './dashboard-format';
import { StatCards } from './stat-cards';
import { VisitorsChart } from './visitors-chart';

interface AnalyticsSectionProps {
  visitorStats: VisitorStatsResponse | null;
  error: string | null;
}

function byDateAscending(a: DailyStat, b: DailyStat): number {
  return dayKey(a.date).localeCompare(dayKey(b.date));
}

export function AnalyticsSection({ visitorStats, error }: AnalyticsSectionProps) {
  return (
    <section className="admin-section" aria-labelledby="analytics-title">
      <h2 id="analytics-title">30-Day Analytics Overview</h2>
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
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
  const oldestFirst = [...visitorStats.dailyStats].sort(byDateAscending);
  const newestFirst = [...oldestFirst].reverse();
  return (
    <>
      <StatCards
        stats={[
          { label: 'Average Daily Visitors', value: formatAverage(summary.averageTotal) },
          { label: 'Average Registered', value: formatAverage(summary.averageAuthenticated) },
          { label: 'Average Anonymous', value: formatAverage(summary.averageAnonymous) },
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
            <div
              className="table-scroll"
              role="region"
              aria-labelledby="daily-breakdown-title"
              tabIndex={0}
            >
              <table
                className="data-table data-table--numeric"
                aria-labelledby="daily-breakdown-title"
              >
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
                      <td>{day.new_users}</td>
                      <td>{day.total_users}</td>
                      <td>{day.peak_concurrent}</td>
                      <td>{day.daily_total}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </>
      )}
    </>
  );
}
