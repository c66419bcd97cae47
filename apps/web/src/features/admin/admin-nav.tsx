import { NavLink } from 'react-router';

/** The admin area's sections: the dashboard, the games catalogue, the site's analytics and the devlog. */
export function AdminNav() {
  return (
    <nav className="admin-nav" aria-label="Admin">
      <NavLink to="/admin" end className="admin-nav__link">
        Dashboard
      </NavLink>
      <NavLink to="/admin/games" className="admin-nav__link">
        Games
      </NavLink>
      <NavLink to="/admin/analytics" className="admin-nav__link">
        Analytics
      </NavLink>
      <NavLink to="/admin/devlog" className="admin-nav__link">
        Devlog
      </NavLink>
    </nav>
  );
}
