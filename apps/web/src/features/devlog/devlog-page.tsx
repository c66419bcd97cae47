import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FEED_PATH } from '@portfolio/types/site';
import { useResource } from '../../ui/use-resource';
import { listPosts } from './devlog-api';
import { formatPostDate } from './post-date';

import './devlog.css';

export const POSTS_PER_PAGE = 10;
export const LOAD_ERROR = 'Failed to load the devlog';

/** The page number of `?page=`, 1 for none or nonsense. */
function pageOf(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

/** /devlog: the published posts, newest first, ten a page, and the feed's address. */
export function DevlogPage() {
  const [searchParams] = useSearchParams();
  const page = pageOf(searchParams);
  const load = useCallback(
    (signal: AbortSignal) => listPosts({ page, pageSize: POSTS_PER_PAGE }, signal),
    [page],
  );
  const { data, error } = useResource(load, LOAD_ERROR);

  const pages = data ? Math.max(1, Math.ceil(data.total / POSTS_PER_PAGE)) : 1;
  return (
    <section className="page devlog-page" aria-labelledby="devlog-title">
      <h1 id="devlog-title">Devlog</h1>
      <p className="lead">
        News and progress notes on the games and projects.{' '}
        <a href={FEED_PATH} type="application/atom+xml">
          Follow the feed
        </a>
      </p>
      {error ? (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      ) : !data ? (
        <p role="status">Loading...</p>
      ) : data.posts.length === 0 ? (
        <p>No posts yet.</p>
      ) : (
        <ol className="post-list">
          {data.posts.map((post) => (
            <li key={post.id} className="post-list__item card">
              <h2>
                <Link to={`/devlog/${encodeURIComponent(post.slug)}`}>{post.title}</Link>
              </h2>
              <p className="post__meta">
                <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time>
                {post.gameTitle ? ` · ${post.gameTitle}` : null}
              </p>
              <p>{post.summary}</p>
            </li>
          ))}
        </ol>
      )}
      {data && pages > 1 ? (
        <nav className="pager" aria-label="Devlog pages">
          {page > 1 ? (
            <Link to={page === 2 ? '/devlog' : `/devlog?page=${page - 1}`}>Newer posts</Link>
          ) : null}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <Link to={`/devlog?page=${page + 1}`}>Older posts</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
