import { Link } from 'react-router';

import { siteConfig } from '../../lib/config';

const CARDS = [
  {
    to: '/games',
    title: 'Games',
    text: 'Play single-player and multiplayer browser games made with GameMaker, Godot and more.',
  },
  {
    to: '/gallery',
    title: 'Gallery',
    text: 'Browse projects, prototypes and visual effects with videos and screenshots.',
  },
  {
    to: '/tutorials',
    title: 'Tutorials',
    text: 'Learn C++ and Unreal Engine with runnable code samples and guides.',
  },
] as const;

export function HomePage() {
  return (
    <section className="page home" aria-labelledby="home-title">
      <div className="home__intro">
        <h1 id="home-title">Welcome to my portfolio</h1>
        <p className="lead">
          I am a passionate game developer and designer. Here you can play my games, explore my
          projects and learn from my tutorials.
        </p>
      </div>
      <ul className="card-grid">
        {CARDS.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="card card--link">
              <h2>{card.title}</h2>
              <p>{card.text}</p>
            </Link>
          </li>
        ))}
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
