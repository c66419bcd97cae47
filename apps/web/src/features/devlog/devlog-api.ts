import type { Post, PostsResponse } from '@portfolio/types/devlog';
import { guardedSchema } from '@portfolio/types/client';

import { http } from '../../lib/http';
import { isPostResponse, isPostsResponse } from './post-guards';

const PostsAnswer = guardedSchema('list of posts', isPostsResponse);
const PostAnswer = guardedSchema('post', isPostResponse);

/** One page of published posts, newest first; only one game's when `game` is given. */
export function listPosts(
  query: { page?: number; pageSize?: number; game?: string },
  signal?: AbortSignal,
): Promise<PostsResponse> {
  const params = new URLSearchParams();
  if (query.page !== undefined && query.page > 1) {
    params.set('page', String(query.page));
  }
  if (query.pageSize !== undefined) {
    params.set('pageSize', String(query.pageSize));
  }
  if (query.game !== undefined) {
    params.set('game', query.game);
  }
  const search = params.toString();
  return http.get(`/api/posts${search ? `?${search}` : ''}`, PostsAnswer, signal);
}

/** A published post by its slug (a 404 HttpError for a draft, a scheduled post or none). */
export async function getPost(slug: string, signal?: AbortSignal): Promise<Post> {
  return (await http.get(`/api/posts/${encodeURIComponent(slug)}`, PostAnswer, signal)).post;
}
