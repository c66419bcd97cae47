import { data, type RouteObject } from 'react-router';

import { ensureAuthLoaded } from '../features/auth/auth-store';
import { ErrorPage } from './error-page';
import { Layout } from './layout';
import { lazyPage } from './lazy-page';
import { LoadingScreen } from './loading-screen';
import { guardLoader, guestOnlyLoader, RouteGuard } from './route-guard';

function throwNotFound(): never {
  // React Router's convention: a thrown response becomes a route error with its status.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw data(null, { status: 404, statusText: 'Not Found' });
}

function NotFound() {
  return null;
}

/**
 * Every route of the spec. Paths match case-insensitively (React Router's default), so the
 * lower-case /gallery and /tutorials links reach /Gallery and /Tutorials.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: Layout,
    ErrorBoundary: ErrorPage,
    HydrateFallback: LoadingScreen,
    // The app renders once the current-user call has finished.
    loader: async () => {
      await ensureAuthLoaded();
      return null;
    },
    shouldRevalidate: () => false,
    children: [
      {
        // Errors below render inside the shared frame.
        ErrorBoundary: ErrorPage,
        children: [
          {
            index: true,
            lazy: lazyPage(
              () => import('../features/home/home-page'),
              (m) => m.HomePage,
            ),
          },
          {
            path: 'login',
            loader: guestOnlyLoader,
            lazy: lazyPage(
              () => import('../features/auth/login-page'),
              (m) => m.LoginPage,
            ),
          },
          {
            path: 'register',
            loader: guestOnlyLoader,
            lazy: lazyPage(
              () => import('../features/auth/register-page'),
              (m) => m.RegisterPage,
            ),
          },
          {
            path: 'games',
            lazy: lazyPage(
              () => import('../features/games/games-page'),
              (m) => m.GamesPage,
            ),
          },
          {
            path: 'Gallery',
            lazy: lazyPage(
              () => import('../features/gallery/gallery-page'),
              (m) => m.GalleryPage,
            ),
          },
          {
            path: 'Tutorials',
            lazy: lazyPage(
              () => import('../features/tutorials/tutorials-page'),
              (m) => m.TutorialsPage,
            ),
          },
          {
            path: 'subscribe',
            lazy: async () => {
              const page = await lazyPage(
                () => import('../features/subscribe/subscribe-page'),
                (m) => m.SubscribePage,
              )();
              // already loaded by now: the page's loader makes /subscribe a document of its own
              const { loader } = await import('../features/subscribe/subscribe-page');
              return { ...page, loader };
            },
          },
          {
            element: <RouteGuard requirement="user" />,
            loader: guardLoader('user'),
            children: [
              {
                path: 'profile',
                lazy: lazyPage(
                  () => import('../features/profile/profile-page'),
                  (m) => m.ProfilePage,
                ),
              },
            ],
          },
          {
            element: <RouteGuard requirement="admin" />,
            loader: guardLoader('admin'),
            children: [
              {
                path: 'admin',
                lazy: lazyPage(
                  () => import('../features/admin/admin-page'),
                  (m) => m.AdminPage,
                ),
              },
              {
                path: 'admin/users/:userId',
                lazy: lazyPage(
                  () => import('../features/admin/admin-user-page'),
                  (m) => m.AdminUserPage,
                ),
              },
            ],
          },
          // The loader always throws, so the error page renders instead of this component.
          { path: '*', loader: throwNotFound, Component: NotFound },
        ],
      },
    ],
  },
];
