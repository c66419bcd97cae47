import type { Post } from '@portfolio/types/devlog';
import { DEFAULT_DESCRIPTION } from '@portfolio/types/pages';
import { PAGE_DATA_ELEMENT_ID } from '@portfolio/types/site';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../ui/error-page';
import { siteConfig } from '../../lib/config';
import { setPageHead } from '../../lib/page-head';
import { nullIfNotFound, useResource } from '../../ui/use-resource';
import { getPost } from './devlog-api';
import { PostArticle, PostBody } from './post-article';
import { isPostResponse } from './post-guards';

import './devlog.css';

export const POST_LOAD_ERROR = 'Failed to load the post';

/** The post the server wrote into this document for its first page (PageHead.data), if it is this one. */
function readInlinePost(slug: string): Post | undefined {
  const text = document.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isPostResponse(parsed) && parsed.post.slug === slug ? parsed.post : undefined;
  } catch {
    return undefined;
  }
}

/** /devlog/:slug: one published post; an unknown, draft or scheduled slug is the 404 page. */
export function PostPage() {
  const { slug = '' } = useParams();
  // an unknown, draft or scheduled slug answers null: the 404 page
  const load = useCallback((signal: AbortSignal) => nullIfNotFound(getPost(slug, signal)), [slug]);
  // the first page's post comes with the document: shown at once, without a request
  const [inlinePost] = useState(() => readInlinePost(slug));
  const { data, error } = useResource(load, POST_LOAD_ERROR, { initialData: inlinePost });
  const post = data ?? undefined;

  useEffect(() => {
    // read once: a later visit (after an edit, say) asks the API
    document.getElementById(PAGE_DATA_ELEMENT_ID)?.remove();
  }, []);

  // the document's title, description and card follow the post; set after the layout's own (which
  // runs after this page's effects in the same commit and knows no post titles)
  useEffect(() => {
    if (!post) {
      return;
    }
    queueMicrotask(() => {
      // the post's own card, as the server writes it (page-cards.ts), not /devlog's
      setPageHead({
        title: `${post.title} | ${siteConfig.siteName}`,
        description: post.summary || DEFAULT_DESCRIPTION,
        path: `/devlog/${encodeURIComponent(post.slug)}`,
        image: post.image,
        type: 'article',
        publishedAt: post.publishedAt,
      });
    });
  }, [post]);

  if (data === null) {
    return <ErrorPage detail={NOT_FOUND} />;
  }
  return (
    <div className="page post-page">
      <p className="post-page__back">
        <Link to="/devlog">← All posts</Link>
      </p>
      {error ? (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      ) : post ? (
        <PostArticle
          title={post.title}
          publishedAt={post.publishedAt}
          gameId={post.gameId}
          gameTitle={post.gameTitle}
          coverImage={post.coverImage}
        >
          <PostBody html={post.html} />
        </PostArticle>
      ) : (
        <p role="status">Loading...</p>
      )}
    </div>
  );
}
