import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { formatPostDate } from './post-date';

/** What a post page shows; the admin's preview shows a draft through the same component. */
export interface PostArticleProps {
  title: string;
  /** The body as rendered: the server's HTML (PostBody), or the editor's live preview. */
  children: ReactNode;
  /** ISO 8601; null for a draft without a date. */
  publishedAt: string | null;
  gameId: string | null;
  gameTitle: string | null;
  coverImage: string | null;
}

/** A devlog post: its title, date, the game it is about, its cover and its body. */
export function PostArticle({
  title,
  children,
  publishedAt,
  gameId,
  gameTitle,
  coverImage,
}: PostArticleProps) {
  return (
    <article className="post" aria-labelledby="post-title">
      <header className="post__header">
        <h1 id="post-title">{title}</h1>
        <p className="post__meta">
          {publishedAt ? (
            <time dateTime={publishedAt}>{formatPostDate(publishedAt)}</time>
          ) : (
            <span>Not published</span>
          )}
          {gameId ? (
            <>
              {' · '}
              <Link to={`/games?play=${encodeURIComponent(gameId)}`}>
                Play {gameTitle ?? gameId}
              </Link>
            </>
          ) : null}
        </p>
      </header>
      {coverImage ? (
        <img className="post__cover" src={coverImage} alt="" width={1200} height={630} />
      ) : null}
      {children}
    </article>
  );
}

/**
 * A post's body as the server rendered it (Post.html): the spec's markdown rules, sanitized on
 * the server (no raw HTML, script, event handler or link of another protocol), so the post page
 * loads no markdown code (Lighthouse on a phone: the renderer's 49 KB and its start-up time).
 */
export function PostBody({ html }: { html: string }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
