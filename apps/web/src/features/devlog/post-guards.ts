import type { Post, PostSummary, PostsResponse } from '@portfolio/types/devlog';

/*
 * zod-free checks of the public devlog answers: the post page, the list and a game's viewer stay
 * without zod and the schemas it builds (26 KB gzip and their start-up time on a phone). The admin
 * editor reads its answers through the zod schemas. post-guards.test.ts checks these agree.
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';
const isNullableString = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

export function isPostSummary(value: unknown): value is PostSummary {
  return (
    isObject(value) &&
    isString(value.id) &&
    isString(value.slug) &&
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value.slug) &&
    isString(value.title) &&
    isString(value.summary) &&
    isNullableString(value.gameId) &&
    isNullableString(value.gameTitle) &&
    isNullableString(value.coverImage) &&
    isNullableString(value.image) &&
    isString(value.publishedAt) &&
    isString(value.updatedAt)
  );
}

export function isPostResponse(value: unknown): value is { post: Post } {
  return (
    isObject(value) &&
    isObject(value.post) &&
    isString(value.post.body) &&
    isString(value.post.html) &&
    isPostSummary(value.post)
  );
}

export function isPostsResponse(value: unknown): value is PostsResponse {
  return (
    isObject(value) &&
    Array.isArray(value.posts) &&
    value.posts.every(isPostSummary) &&
    typeof value.page === 'number' &&
    typeof value.pageSize === 'number' &&
    typeof value.total === 'number'
  );
}
