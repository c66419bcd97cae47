import { Link, useLocation } from 'react-router';

import { LiveRoomsSection } from '../admin-games';
import { RealtimeCard } from '../analytics';

import { AdminNav } from '../../ui/admin-nav';
import { AdminSection } from '../../ui/admin-section';
import { AnalyticsSection } from './analytics-section';
import { ChatReportsSection } from './chat-moderation';
import { GameClicksSection } from './game-clicks-section';
import { LiveActivitySection } from './live-activity-section';
import { useAdminDashboard } from './use-admin-dashboard';
import { noticeOf } from '../../lib/navigation-notice';
import { UsersSection } from './users-section';

/**
 * The admin dashboard: live activity, 30-day analytics, game clicks, every game's live rooms, user
 * management and chat reports.
 */
export function AdminPage() {
  const { activeUsers, activeUsersError, visitorStats, visitorStatsError, isLive } =
    useAdminDashboard();
  const notice = noticeOf(useLocation().state);

  return (
    <section className="page admin-dashboard" aria-labelledby="admin-title">
      <header className="admin-dashboard__header">
        <h1 id="admin-title">Admin Dashboard</h1>
        <div className="admin-dashboard__actions">
          <Link to="/admin/analytics" className="button button--secondary button--small">
            Site Analytics
          </Link>
          <ConnectionIndicator isLive={isLive} />
        </div>
      </header>
      <AdminNav />
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      <LiveActivitySection activeUsers={activeUsers} error={activeUsersError} />
      <RealtimeCard />
      <AnalyticsSection visitorStats={visitorStats} error={visitorStatsError} />
      <GameClicksSection gameStats={visitorStats?.gameStats ?? null} error={visitorStatsError} />
      <AdminSection titleId="dashboard-rooms-title" title="Live Rooms">
        <LiveRoomsSection titleId="dashboard-rooms-title" />
      </AdminSection>
      <UsersSection />
      <ChatReportsSection />
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
