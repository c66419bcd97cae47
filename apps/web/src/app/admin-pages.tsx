import { useRoutes } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../ui/error-page';
import { AdminContentSection } from '../features/admin-content/admin-content-page';
import { AdminDevlogSection } from '../features/admin-devlog/admin-devlog-page';
import { AdminGamesSection } from '../features/admin-games/admin-games-page';
import { AdminMailMessagePage, AdminMailPage } from '../features/admin-mail/admin-mail-page';
import { AdminMediaPage } from '../features/admin-media/admin-media-page';
import { AnalyticsPage } from '../features/analytics/analytics-page';
import { AdminPage } from '../features/admin/admin-page';
import { AdminUserPage } from '../features/admin/admin-user-page';

/**
 * Every admin page, in one lazy chunk behind one route of the app's table (which is part of the
 * home page's entry: one route there, not one route, chunk and preload list per page).
 */
export function AdminPages() {
  return useRoutes([
    { index: true, element: <AdminPage /> },
    { path: 'users/:userId', element: <AdminUserPage /> },
    { path: 'games/*', element: <AdminGamesSection /> },
    { path: 'content/*', element: <AdminContentSection /> },
    { path: 'analytics', element: <AnalyticsPage /> },
    { path: 'media', element: <AdminMediaPage /> },
    { path: 'devlog/*', element: <AdminDevlogSection /> },
    { path: 'mail', element: <AdminMailPage /> },
    { path: 'mail/:messageId', element: <AdminMailMessagePage /> },
    { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
  ]);
}
