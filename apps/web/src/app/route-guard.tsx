import { Navigate, Outlet, redirect, useLocation, type LoaderFunctionArgs } from 'react-router';

import { ensureAuthLoaded, useAuthStore } from '../features/auth/auth-store';
import { safeRedirect } from '../lib/safe-redirect';
import { decideRouteAccess, type LoginState, type RouteRequirement } from './route-access';

function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/**
 * Route loader: waits for the current user, and sends a signed-in user lacking the role home
 * before the page loads. Guests are sent to the login page by RouteGuard, which can leave the way
 * back in history state (a loader redirect cannot).
 */
export function guardLoader(requirement: RouteRequirement) {
  return async ({ request }: LoaderFunctionArgs) => {
    await ensureAuthLoaded();
    const access = decideRouteAccess(
      useAuthStore.getState().user,
      requirement,
      pathOf(new URL(request.url)),
    );
    return access.kind === 'redirect' && access.returnTo === undefined ? redirect(access.to) : null;
  };
}

/**
 * Route loader of /login and /register: a signed-in user has nothing to do there and is sent on,
 * to the page named by the `redirect` query (a same-site path) or home. Not when an admin page
 * asked for an admin sign-in (`admin=true`): a signed-in non-admin may sign in as an admin.
 */
export async function guestOnlyLoader({ request }: LoaderFunctionArgs) {
  await ensureAuthLoaded();
  const query = new URL(request.url).searchParams;
  if (useAuthStore.getState().user === null || query.get('admin') === 'true') {
    return null;
  }
  return redirect(safeRedirect(query.get('redirect')));
}

/** Guards the page while it is open too (for example after logging out). */
export function RouteGuard({ requirement }: { requirement: RouteRequirement }) {
  const user = useAuthStore((state) => state.user);
  const location = useLocation();
  const access = decideRouteAccess(user, requirement, `${location.pathname}${location.search}`);
  if (access.kind === 'redirect') {
    const state: LoginState | undefined =
      access.returnTo === undefined ? undefined : { returnTo: access.returnTo };
    return <Navigate to={access.to} state={state} replace />;
  }
  return <Outlet />;
}
