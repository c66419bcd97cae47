import { useEffect, useState, type ReactNode } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';

import { ensureAuthLoaded } from '../features/auth/auth-store';
import { HomePage } from '../features/home/home-page';
import { ErrorBoundary } from '../ui/error-boundary';
import { ErrorPage, NOT_FOUND, pageErrorFallback } from '../ui/error-page';
import { Layout } from './layout';
import { lazyPage, type LazyPage } from './lazy-page';
import { LoadingScreen } from '../ui/loading-screen';
import { GuestOnly, RouteGuard } from './route-guard';

// Every page but the home page is its own chunk; the admin pages share one (admin-pages.tsx).
const pages = {
  login: lazyPage(
    () => import('../features/auth/login-page'),
    (m) => m.LoginPage,
  ),
  register: lazyPage(
    () => import('../features/auth/register-page'),
    (m) => m.RegisterPage,
  ),
  forgotPassword: lazyPage(
    () => import('../features/auth/forgot-password-page'),
    (m) => m.ForgotPasswordPage,
  ),
  resetPassword: lazyPage(
    () => import('../features/auth/reset-password-page'),
    (m) => m.ResetPasswordPage,
  ),
  confirmEmail: lazyPage(
    () => import('../features/auth/confirm-email-page'),
    (m) => m.ConfirmEmailPage,
  ),
  games: lazyPage(
    () => import('../features/games/games-page'),
    (m) => m.GamesPage,
  ),
  gallery: lazyPage(
    () => import('../features/gallery/gallery-page'),
    (m) => m.GalleryPage,
  ),
  tutorials: lazyPage(
    () => import('../features/tutorials/tutorials-page'),
    (m) => m.TutorialsPage,
  ),
  devlog: lazyPage(
    () => import('../features/devlog/devlog-page'),
    (m) => m.DevlogPage,
  ),
  post: lazyPage(
    () => import('../features/devlog/post-page'),
    (m) => m.PostPage,
  ),
  subscribe: lazyPage(
    () => import('../features/subscribe/subscribe-page'),
    // inside StripeDocument, which comes with the page's code (not in the home page's)
    (m) => m.SubscribeRoute,
  ),
  profile: lazyPage(
    () => import('../features/profile/profile-page'),
    (m) => m.ProfilePage,
  ),
  admin: lazyPage(
    () => import('./admin-pages'),
    (m) => m.AdminPages,
  ),
} satisfies Record<string, LazyPage>;

/**
 * A route showing a lazily loaded page, inside `wrap` if given; `handle` lets the start-up preload
 * the page's code.
 */
function page(
  path: string,
  { Page, preload }: LazyPage,
  wrap: (page: ReactNode) => ReactNode = (element) => element,
): RouteObject {
  return { path, element: wrap(<Page />), handle: { preload } };
}

/**
 * Every route of the spec. Paths match case-insensitively (React Router's default), so the
 * lower-case /gallery and /tutorials links reach /Gallery and /Tutorials.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      // keyed: moving from one to the other decides again
      page('login', pages.login, (element) => <GuestOnly key="login">{element}</GuestOnly>),
      page('register', pages.register, (element) => (
        <GuestOnly key="register">{element}</GuestOnly>
      )),
      page('forgot-password', pages.forgotPassword, (element) => (
        <GuestOnly key="forgot-password">{element}</GuestOnly>
      )),
      // not guest-only: a signed-in browser may open a link mailed to it (its session ends)
      page('reset-password', pages.resetPassword),
      page('confirm-email', pages.confirmEmail),
      page('games', pages.games),
      page('Gallery', pages.gallery),
      page('Tutorials', pages.tutorials),
      page('devlog', pages.devlog),
      page('devlog/:slug', pages.post),
      page('subscribe', pages.subscribe),
      {
        element: <RouteGuard requirement="user" />,
        children: [page('profile', pages.profile)],
      },
      {
        element: <RouteGuard requirement="admin" />,
        // /admin, /admin/users/:userId, /admin/games/…, /admin/analytics (routed inside the chunk)
        children: [page('admin/*', pages.admin)],
      },
      { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
    ],
  },
];

/**
 * Starts downloading the code of the page at `pathname`; resolves when it has arrived (or failed:
 * the page shows the failure when it renders).
 */
export function preloadPage(pathname: string): Promise<unknown> {
  return Promise.allSettled(
    (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
      const handle = route.handle as { preload?: () => Promise<unknown> } | undefined;
      return handle?.preload ? [handle.preload()] : [];
    }),
  );
}

/**
 * The whole app. The loading screen stays until the current user is known and the first page's
 * code has arrived (both requests run side by side), so the frame and the page appear together
 * instead of the footer jumping down when the page arrives.
 */
export function App() {
  const [isStarted, setStarted] = useState(false);
  const location = useLocation();
  const [firstPathname] = useState(location.pathname);
  useEffect(() => {
    let isMounted = true;
    void Promise.all([ensureAuthLoaded(), preloadPage(firstPathname)]).then(() => {
      if (isMounted) {
        setStarted(true);
      }
    });
    return () => {
      isMounted = false;
    };
  }, [firstPathname]);
  const element = useRoutes(routes);
  return (
    <ErrorBoundary resetKey={location.key} fallback={pageErrorFallback}>
      {isStarted ? element : <LoadingScreen />}
    </ErrorBoundary>
  );
}
