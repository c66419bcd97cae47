import { useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

import { useAuthStore } from '../features/auth/auth-store';
import { safeRedirect } from '../lib/safe-redirect';
import { decideRouteAccess, type LoginState, type RouteRequirement } from '../lib/route-access';

/**
 * Guards the pages below it, on arrival and while they are open (for example after logging
 * out): a guest is sent to the login page with the way back, a signed-in user lacking the role
 * home.
 */
export function RouteGuard({ requirement }: { requirement: RouteRequirement }) {
  const user = useAuthStore((state) => state.user);
  const isTwoFactorSetupRequired = useAuthStore((state) => state.isTwoFactorSetupRequired);
  const location = useLocation();
  // ADMIN_REQUIRE_2FA: an admin without two-factor sign-in sets it up on /profile first, then
  // comes back here
  if (user && isTwoFactorSetupRequired && location.pathname !== '/profile') {
    const state: LoginState = { returnTo: `${location.pathname}${location.search}` };
    return <Navigate to="/profile" state={state} replace />;
  }
  const access = decideRouteAccess(user, requirement, `${location.pathname}${location.search}`);
  if (access.kind === 'redirect') {
    const state: LoginState | undefined =
      access.returnTo === undefined ? undefined : { returnTo: access.returnTo };
    return <Navigate to={access.to} state={state} replace />;
  }
  return <Outlet />;
}

/**
 * /login and /register: a signed-in user who opens them has nothing to do there and is sent on,
 * to the page named by the `redirect` query (a same-site path) or home. Not when an admin page
 * asked for an admin sign-in (`admin=true`): a signed-in non-admin may sign in as an admin.
 * Decided on arrival only, so signing in on the page leaves where to go next to the page.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { search } = useLocation();
  const [sendTo] = useState(() => {
    const query = new URLSearchParams(search);
    return useAuthStore.getState().user === null || query.get('admin') === 'true'
      ? null
      : safeRedirect(query.get('redirect'));
  });
  return sendTo === null ? children : <Navigate to={sendTo} replace />;
}
