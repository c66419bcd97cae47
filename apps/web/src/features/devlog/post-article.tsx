import { Link } from 'react-router';

import { MarkdownContent } from '../tutorials/markdown-content';
import { formatPostDate } from './post-date';

/** What a post page shows; the admin's preview shows a draft through the same component. */
export interface PostArticleProps {
  title: string;
  body: string;
  /** ISO 8601; null for a draft without a date. */
  publishedAt: string | null;
  gameId: string | null;
  gameTitle: string | null;
  coverImage: string | null;
}

/**
 * A devlog post: its title, date, the game it is about, its cover and its markdown body through
 * the site's one safe renderer (no raw HTML; links only for http, https, irc, ircs, mailto, xmpp).
 */
export function PostArticle({
  title,
  body,
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
      <MarkdownContent>{body}</MarkdownContent>
    </article>
  );
}
