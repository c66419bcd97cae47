import { useRoutes } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../ui/error-page';
import { AdminGamesSection } from '../admin-games/admin-games-page';
import { AnalyticsPage } from '../analytics/analytics-page';
import { AdminPage } from './admin-page';
import { AdminUserPage } from './admin-user-page';

/**
 * Every admin page, in one lazy chunk behind one route of the app's table (which is part of the
 * home page's entry: one route there, not one route, chunk and preload list per page).
 */
export function AdminPages() {
  return useRoutes([
    { index: true, element: <AdminPage /> },
    { path: 'users/:userId', element: <AdminUserPage /> },
    { path: 'games/*', element: <AdminGamesSection /> },
    { path: 'analytics', element: <AnalyticsPage /> },
    { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
  ]);
}
