import { PostResponse, PostsResponse } from '@portfolio/types/devlog';
import { describe, expect, it } from 'vitest';

import { isPostResponse, isPostsResponse } from './post-guards';

const post = {
  id: 'p1',
  slug: 'first-post',
  title: 'First',
  summary: 'Hello',
  gameId: null,
  gameTitle: null,
  coverImage: null,
  image: '/assets/a.png',
  publishedAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  body: 'Hello',
  html: '<p>Hello</p>',
};

describe('the zod-free devlog guards', () => {
  it.each([
    { post },
    { post: { ...post, gameId: 'Pong', gameTitle: 'Pong' } },
    { post: { ...post, body: 1 } },
    { post: { ...post, html: undefined } },
    { post: { ...post, slug: 'Not A Slug' } },
    { post: { ...post, image: undefined } },
    { post: null },
    null,
  ])('agrees with the PostResponse schema on %j', (value) => {
    expect(isPostResponse(value)).toBe(PostResponse.safeParse(value).success);
  });

  it.each([
    { posts: [post], page: 1, pageSize: 10, total: 1 },
    { posts: [], page: 1, pageSize: 10, total: 0 },
    { posts: [{ ...post, title: 3 }], page: 1, pageSize: 10, total: 1 },
    { posts: [post], page: '1', pageSize: 10, total: 1 },
    { posts: 'none' },
  ])('agrees with the PostsResponse schema on %j', (value) => {
    expect(isPostsResponse(value)).toBe(PostsResponse.safeParse(value).success);
  });
});
