import { NavLink } from 'react-router';

/**
 * The admin area's sections: dashboard, games, content, the site's analytics, media, devlog and
 * mail (the outbox).
 */
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
      <NavLink to="/admin/devlog" className="admin-nav__link">
        Devlog
      </NavLink>
      <NavLink to="/admin/mail" className="admin-nav__link">
        Mail
      </NavLink>
    </nav>
  );
}
