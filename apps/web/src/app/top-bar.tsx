import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { useAuthStore } from '../features/auth/auth-store';
import { siteConfig } from '../lib/config';
import { safeRedirect, withRedirect } from '../lib/safe-redirect';
import { RoleBadge } from '../ui/role-badge';

const NAV_LINKS = [
  { to: '/games', label: 'Games' },
  { to: '/gallery', label: 'Gallery' },
  { to: '/tutorials', label: 'Tutorials' },
] as const;

/** Pages about signing in: their Login link keeps the destination they already carry. */
const AUTH_PATHS = new Set([
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/confirm-email',
]);

/**
 * Where the top bar's Login returns to after signing in (spec: /login's `redirect`): the page the
 * visitor is on, or on a sign-in page the destination that page already carries.
 */
export function loginReturnPath({ pathname, search }: { pathname: string; search: string }) {
  if (AUTH_PATHS.has(pathname.toLowerCase())) {
    return safeRedirect(new URLSearchParams(search).get('redirect'));
  }
  return safeRedirect(`${pathname}${search}`);
}

/** The shared top bar: who is signed in, the main links and the login/logout control. */
export function TopBar() {
  const user = useAuthStore((state) => state.user);
  const logout = useAuthStore((state) => state.logout);
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const location = useLocation();

  const handleLogout = async () => {
    setIsLoggingOut(true);
    await logout();
    setIsLoggingOut(false);
  };

  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <Link to="/" className="top-bar__brand">
          {siteConfig.siteName}
        </Link>
        <nav className="top-bar__nav" aria-label="Main">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className="top-bar__link">
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="top-bar__account">
          {user?.role === 'user' ? (
            // the one role that has something to buy: the way to it from every page
            <NavLink to="/subscribe" className="top-bar__link top-bar__subscribe">
              Subscribe
            </NavLink>
          ) : null}
          {user ? (
            <span className="top-bar__user">
              <Link to="/profile" className="top-bar__username">
                {user.username}
              </Link>
              <RoleBadge role={user.role} />
            </span>
          ) : (
            <span className="top-bar__user top-bar__user--guest">Guest</span>
          )}
          {user ? (
            <button
              type="button"
              className="button button--secondary"
              disabled={isLoggingOut}
              onClick={() => {
                void handleLogout();
              }}
            >
              Logout
            </button>
          ) : (
            <Link
              to={withRedirect('/login', loginReturnPath(location))}
              className="button button--primary"
            >
              Login
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
