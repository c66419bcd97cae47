import { desc } from 'drizzle-orm';

import type { LatestPostLink } from '@portfolio/types';
import type { Post } from '@portfolio/types/devlog';

import { posts } from '../../../db/schema.js';
import {
  type DevlogContext,
  FEED_POSTS,
  freshCache,
  isVisible,
  LATEST_POSTS,
  toPost,
} from '../context.js';

/** The newest public posts with their bodies (the feed), cached until a change. */
export async function feedPosts(ctx: DevlogContext): Promise<Post[]> {
  const current = await freshCache(ctx);
  if (!current.feed) {
    const rows = await ctx.db
      .select()
      .from(posts)
      .where(isVisible(ctx.now()))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(FEED_POSTS);
    current.feed = await Promise.all(rows.map((row) => toPost(ctx, row)));
  }
  return current.feed;
}

/** The home page's links to the newest posts, cached until a change or a scheduled post's time. */
export async function latestLinks(ctx: DevlogContext): Promise<LatestPostLink[]> {
  const current = await freshCache(ctx);
  if (!current.latest) {
    const rows = await ctx.db
      .select({ slug: posts.slug, title: posts.title, publishedAt: posts.publishedAt })
      .from(posts)
      .where(isVisible(ctx.now()))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(LATEST_POSTS);
    current.latest = rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      publishedAt: (row.publishedAt ?? new Date(0)).toISOString(),
    }));
  }
  return current.latest;
}
