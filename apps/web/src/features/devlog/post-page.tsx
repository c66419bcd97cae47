import type { Post } from '@portfolio/types/devlog';
import { DEFAULT_DESCRIPTION, SITE_NAME } from '@portfolio/types/site';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../app/error-page';
import { isHttpError } from '../../lib/http';
import { serverMessageOr } from '../../lib/server-message';
import { getPost } from './devlog-api';
import { PostArticle } from './post-article';

import './devlog.css';

export const POST_LOAD_ERROR = 'Failed to load the post';

type PostState = { slug: string; post?: Post; error?: string; isMissing?: boolean };

/** /devlog/:slug: one published post; an unknown, draft or scheduled slug is the 404 page. */
export function PostPage() {
  const { slug = '' } = useParams();
  const [state, setState] = useState<PostState>();

  useEffect(() => {
    const controller = new AbortController();
    getPost(slug, controller.signal).then(
      (post) => setState({ slug, post }),
      (error: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        setState(
          isHttpError(error) && error.status === 404
            ? { slug, isMissing: true }
            : { slug, error: serverMessageOr(error, POST_LOAD_ERROR) },
        );
      },
    );
    return () => controller.abort();
  }, [slug]);

  const current = state?.slug === slug ? state : undefined;
  const post = current?.post;
  // the server wrote this post's title into the first page; moving between posts, the app does
  useEffect(() => {
    if (!post) {
      return;
    }
    document.title = `${post.title} | ${SITE_NAME}`;
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute('content', post.summary || DEFAULT_DESCRIPTION);
  }, [post]);

  if (current?.isMissing) {
    return <ErrorPage detail={NOT_FOUND} />;
  }
  return (
    <div className="page post-page">
      <p className="post-page__back">
        <Link to="/devlog">← All posts</Link>
      </p>
      {current?.error ? (
        <p role="alert" className="alert alert--error">
          {current.error}
        </p>
      ) : post ? (
        <PostArticle
          title={post.title}
          body={post.body}
          publishedAt={post.publishedAt}
          gameId={post.gameId}
          gameTitle={post.gameTitle}
          coverImage={post.coverImage}
        />
      ) : (
        <p role="status">Loading...</p>
      )}
    </div>
  );
}
