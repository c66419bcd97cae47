import { Link } from 'react-router';

import { siteConfig } from '../../lib/config';

/** The three cards' destinations (spec section 1); their titles and texts are the owner's. */
const CARD_LINKS = [
  { to: '/games', name: 'Games' },
  { to: '/gallery', name: 'Gallery' },
  { to: '/tutorials', name: 'Tutorials' },
] as const;

/**
 * The home page: the owner's intro and three link cards, written into the page by the server
 * (SiteConfig), so the page needs no request and carries none of the texts in its script.
 */
export function HomePage() {
  const home = siteConfig.home;
  return (
    <section className="page home" aria-labelledby="home-title">
      <div className="home__intro">
        <h1 id="home-title">{home?.title ?? siteConfig.siteName}</h1>
        {home?.lead ? <p className="lead">{home.lead}</p> : null}
      </div>
      <ul className="card-grid">
        {CARD_LINKS.map((link, index) => {
          const card = home?.cards[index];
          return (
            <li key={link.to}>
              <Link to={link.to} className="card card--link">
                <h2>{card?.title ?? link.name}</h2>
                {card?.text ? <p>{card.text}</p> : null}
              </Link>
            </li>
          );
        })}
      </ul>
      <LatestPosts />
    </section>
  );
}

/**
 * The three newest devlog posts, as the server wrote them into the page (no request, no code
 * beyond these links); nothing before the first post.
 */
function LatestPosts() {
  const posts = siteConfig.latestPosts ?? [];
  if (posts.length === 0) {
    return null;
  }
  return (
    <section className="home__posts" aria-labelledby="home-posts-title">
      <h2 id="home-posts-title">Latest from the devlog</h2>
      <ul>
        {posts.map((post) => (
          <li key={post.slug}>
            <Link to={`/devlog/${encodeURIComponent(post.slug)}`}>{post.title}</Link>{' '}
            <time dateTime={post.publishedAt}>{post.publishedAt.slice(0, 10)}</time>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/devlog">All posts</Link>
      </p>
    </section>
  );
}
