import type { CurrentUser } from '@portfolio/types';

/** Who may open a guarded route: any signed-in user, or admins only. */
export type RouteRequirement = 'user' | 'admin';

export type RouteAccess = { kind: 'allow' } | { kind: 'redirect'; to: string };

/**
 * The route guard rule (spec section 4): no user → the login page (with admin=true for admin
 * routes, and a redirect back to the page); a signed-in user lacking the role → home.
 */
export function decideRouteAccess(
  user: Pick<CurrentUser, 'role'> | null,
  requirement: RouteRequirement,
  currentPath: string,
): RouteAccess {
  if (user === null) {
    const params = new URLSearchParams();
    if (requirement === 'admin') {
      params.set('admin', 'true');
    }
    params.set('redirect', currentPath);
    return { kind: 'redirect', to: `/login?${params.toString()}` };
  }
  if (requirement === 'admin' && user.role !== 'admin') {
    return { kind: 'redirect', to: '/' };
  }
  return { kind: 'allow' };
}
