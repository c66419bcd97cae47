import { AnalyticsSection } from './analytics-section';
import { useDashboardStore } from './dashboard-store';
import { GameClicksSection } from './game-clicks-section';
import { LiveActivitySection } from './live-activity-section';
import { useAdminDashboard } from './use-admin-dashboard';

/** The admin dashboard: live activity, 30-day analytics and game clicks. */
export function AdminPage() {
  useAdminDashboard();
  const activeUsers = useDashboardStore((state) => state.activeUsers);
  const activeUsersError = useDashboardStore((state) => state.activeUsersError);
  const visitorStats = useDashboardStore((state) => state.visitorStats);
  const visitorStatsError = useDashboardStore((state) => state.visitorStatsError);
  const isLive = useDashboardStore((state) => state.isLive);

  return (
    <section className="page admin-dashboard" aria-labelledby="admin-title">
      <header className="admin-dashboard__header">
        <h1 id="admin-title">Admin Dashboard</h1>
        <ConnectionIndicator isLive={isLive} />
      </header>
      <LiveActivitySection activeUsers={activeUsers} error={activeUsersError} />
      <AnalyticsSection visitorStats={visitorStats} error={visitorStatsError} />
      <GameClicksSection gameStats={visitorStats?.gameStats ?? null} error={visitorStatsError} />
    </section>
  );
}

function ConnectionIndicator({ isLive }: { isLive: boolean }) {
  return (
    <p
      className={`connection-indicator ${isLive ? 'connection-indicator--live' : ''}`}
      role="status"
      title={
        isLive ? 'Live updates are connected' : 'Live updates unavailable; refreshing every 30 s'
      }
    >
      {isLive ? 'Live' : 'Polling'}
    </p>
  );
}
