import { useCallback } from 'react';
import { Link } from 'react-router';

import { pause, useResource } from '../../ui/use-resource';
import { listPosts } from './devlog-api';
import { formatPostDate } from './post-date';

import './devlog.css';

/** How long the viewer waits before asking for the game's posts: the game's files go first. */
export const GAME_POSTS_DELAY_MS = 1500;

/**
 * The game's three newest devlog posts under its viewer, asked for once the game has had a
 * moment to load; nothing when it has none (or the request fails: they are an extra).
 */
export function GamePosts({ gameId }: { gameId: string }) {
  const load = useCallback(
    async (signal: AbortSignal) => {
      await pause(GAME_POSTS_DELAY_MS, signal);
      return (await listPosts({ game: gameId, pageSize: 3 }, signal)).posts;
    },
    [gameId],
  );
  const { data: posts, error } = useResource(load, 'Failed to load the posts');
  if (error || !posts || posts.length === 0) {
    return null;
  }
  return (
    <section className="game-posts" aria-labelledby={`game-posts-${gameId}`}>
      <h2 id={`game-posts-${gameId}`}>From the devlog</h2>
      <ul>
        {posts.map((post) => (
          <li key={post.id}>
            <Link to={`/devlog/${encodeURIComponent(post.slug)}`}>{post.title}</Link>{' '}
            <span className="post__meta">
              <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
