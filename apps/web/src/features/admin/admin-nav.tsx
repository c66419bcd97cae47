import { NavLink } from 'react-router';

/** The admin area's sections: the dashboard, the games, the content, the site's analytics, media. */
export function AdminNav() {
  return (
    <nav className="admin-nav" aria-label="Admin">
      <NavLink to="/admin" end className="admin-nav__link">
        Dashboard
      </NavLink>
      <NavLink to="/admin/games" className="admin-nav__link">
        Games
      </NavLink>
      <NavLink to="/admin/content" className="admin-nav__link">
        Content
      </NavLink>
      <NavLink to="/admin/analytics" className="admin-nav__link">
        Analytics
      </NavLink>
      <NavLink to="/admin/media" className="admin-nav__link">
        Media
      </NavLink>
    </nav>
  );
}
