import type { ActiveUsersResponse } from '@portfolio/types';

import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { formatLocalTime } from './dashboard-format';
import { StatCards } from './stat-cards';
import { ErrorAlert } from '../../ui/error-alert';

interface LiveActivitySectionProps {
  activeUsers: ActiveUsersResponse | null;
  error: string | null;
}

function guestPages(currentPages: Record<string, number>): [string, number][] {
  return Object.entries(currentPages)
    .filter(([, count]) => count > 0)
    .sort(([pageA, countA], [pageB, countB]) => countB - countA || pageA.localeCompare(pageB));
}

export function LiveActivitySection({ activeUsers, error }: LiveActivitySectionProps) {
  return (
    <section className="admin-section" aria-labelledby="live-activity-title">
      <h2 id="live-activity-title">Live Activity</h2>
      {error ? <ErrorAlert message={error} /> : null}
      {activeUsers ? <LiveActivity activeUsers={activeUsers} /> : <LoadingNote error={error} />}
    </section>
  );
}

function LoadingNote({ error }: { error: string | null }) {
  return error ? null : <p className="admin-muted loading-room">Loading...</p>;
}

function LiveActivity({ activeUsers }: { activeUsers: ActiveUsersResponse }) {
  const pages = guestPages(activeUsers.anonymous.currentPages);
  return (
    <>
      <StatCards
        stats={[
          { label: 'Total Active Users', value: activeUsers.totalActive },
          { label: 'Active Registered Users', value: activeUsers.authenticated.length },
          { label: 'Anonymous Users', value: activeUsers.anonymous.count },
        ]}
      />
      <div className="admin-columns">
        <div className="admin-panel admin-panel--wide">
          <h3 id="active-users-title">Active Users</h3>
          {activeUsers.authenticated.length === 0 ? (
            <p className="admin-muted">No registered users are active right now.</p>
          ) : (
            <ResponsiveTable labelledBy="active-users-title">
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">Role</th>
                  <th scope="col">Current Page</th>
                  <th scope="col">Last Seen</th>
                </tr>
              </thead>
              <tbody>
                {activeUsers.authenticated.map((user) => (
                  <tr key={user.username}>
                    <th scope="row">{user.username}</th>
                    <Cell label="Role">
                      <span className={`role-tag role-tag--${user.role}`}>{user.role}</span>
                    </Cell>
                    <Cell label="Current Page">
                      {user.current_page ? <code>{user.current_page}</code> : 'Browsing'}
                    </Cell>
                    <Cell label="Last Seen">
                      <time dateTime={user.last_seen}>{formatLocalTime(user.last_seen)}</time>
                    </Cell>
                  </tr>
                ))}
              </tbody>
            </ResponsiveTable>
          )}
        </div>
        <div className="admin-panel">
          <h3 id="guest-pages-title">Guests by Page</h3>
          {pages.length === 0 ? (
            <p className="admin-muted">No guests are browsing right now.</p>
          ) : (
            <ul className="guest-pages" aria-labelledby="guest-pages-title">
              {pages.map(([page, count]) => (
                <li key={page}>
                  <code>{page}</code>
                  <span className="guest-pages__count">
                    {count} {count === 1 ? 'guest' : 'guests'}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}
