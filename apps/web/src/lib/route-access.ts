import type { CurrentUser } from '@portfolio/types';

/** Who may open a guarded route: any signed-in user, or admins only. */
export type RouteRequirement = 'user' | 'admin';

export type RouteAccess =
  | { kind: 'allow' }
  /** `returnTo`: where to go after signing in; travels in history state, not in the URL. */
  | { kind: 'redirect'; to: string; returnTo?: string };

/**
 * The route guard rule (spec section 4): no user → /login (/login?admin=true for admin routes),
 * remembering the page to come back to; a signed-in user lacking the role → home.
 */
export function decideRouteAccess(
  user: Pick<CurrentUser, 'role'> | null,
  requirement: RouteRequirement,
  currentPath: string,
): RouteAccess {
  if (user === null) {
    return {
      kind: 'redirect',
      to: requirement === 'admin' ? '/login?admin=true' : '/login',
      returnTo: currentPath,
    };
  }
  if (requirement === 'admin' && user.role !== 'admin') {
    return { kind: 'redirect', to: '/' };
  }
  return { kind: 'allow' };
}

/** The history state the guard leaves for the login page. */
export interface LoginState {
  returnTo?: string;
  registered?: boolean;
}

export function readLoginState(state: unknown): LoginState {
  if (typeof state !== 'object' || state === null) {
    return {};
  }
  const { returnTo, registered } = state as Record<string, unknown>;
  return {
    ...(typeof returnTo === 'string' ? { returnTo } : {}),
    ...(registered === true ? { registered } : {}),
  };
}
