import { Navigate, Outlet, redirect, useLocation, type LoaderFunctionArgs } from 'react-router';

import { ensureAuthLoaded, useAuthStore } from '../features/auth/auth-store';
import { decideRouteAccess, type RouteRequirement } from './route-access';

function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** Route loader that redirects before a guarded page loads. */
export function guardLoader(requirement: RouteRequirement) {
  return async ({ request }: LoaderFunctionArgs) => {
    await ensureAuthLoaded();
    const access = decideRouteAccess(
      useAuthStore.getState().user,
      requirement,
      pathOf(new URL(request.url)),
    );
    return access.kind === 'redirect' ? redirect(access.to) : null;
  };
}

/** Keeps a guarded page guarded while it is open (for example after logging out). */
export function RouteGuard({ requirement }: { requirement: RouteRequirement }) {
  const user = useAuthStore((state) => state.user);
  const location = useLocation();
  const access = decideRouteAccess(user, requirement, `${location.pathname}${location.search}`);
  if (access.kind === 'redirect') {
    return <Navigate to={access.to} replace />;
  }
  return <Outlet />;
}
