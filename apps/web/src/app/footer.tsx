import { Link } from 'react-router';

import { siteConfig } from '../lib/config';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <p>
          © {year} {siteConfig.siteName}. All rights reserved.
        </p>
        <ul className="footer__links">
          <li>
            <Link to="/devlog">Devlog</Link>
          </li>
          <li>
            <a href={siteConfig.githubUrl} target="_blank" rel="noopener noreferrer">
              GitHub
            </a>
          </li>
          <li>
            <a href={siteConfig.linkedinUrl} target="_blank" rel="noopener noreferrer">
              LinkedIn
            </a>
          </li>
        </ul>
      </div>
    </footer>
  );
}
