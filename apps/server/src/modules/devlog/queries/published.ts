import { and, count, desc, eq } from 'drizzle-orm';

import type { Post, PostSummary } from '@portfolio/types/devlog';

import { posts } from '../../../db/schema.js';
import { type DevlogContext, freshCache, isVisible, toPost, toSummary } from '../context.js';

/** A page of public posts, newest first, optionally about one game. */
export async function listPublished(
  ctx: DevlogContext,
  { game, page, pageSize }: { game?: string | undefined; page: number; pageSize: number },
): Promise<{ posts: PostSummary[]; total: number }> {
  const where = and(isVisible(ctx.now()), game ? eq(posts.gameId, game) : undefined);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(posts)
      .where(where)
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ value: count() }).from(posts).where(where),
  ]);
  return { posts: rows.map((row) => toSummary(ctx, row)), total: total?.value ?? 0 };
}

/** A public post by its slug; undefined for a draft, a scheduled post or none. */
export async function getPublished(ctx: DevlogContext, slug: string): Promise<Post | undefined> {
  const [row] = await ctx.db
    .select()
    .from(posts)
    .where(and(eq(posts.slug, slug), isVisible(ctx.now())));
  return row ? toPost(ctx, row) : undefined;
}

/** getPublished, cached until a change. */
export async function getPublishedCached(
  ctx: DevlogContext,
  slug: string,
): Promise<Post | undefined> {
  const current = await freshCache(ctx);
  current.bySlug ??= new Map();
  const known = current.bySlug.get(slug);
  if (known !== undefined) {
    return known ?? undefined;
  }
  const post = await getPublished(ctx, slug);
  // made-up slugs are not remembered: they would crowd out the real ones
  if (post && current.bySlug.size < 1000) {
    current.bySlug.set(slug, post);
  }
  return post;
}

/** Every public post's address and date (sitemap.xml). */
export async function sitemapEntries(
  ctx: DevlogContext,
): Promise<Array<{ slug: string; updatedAt: string }>> {
  const rows = await ctx.db
    .select({ slug: posts.slug, updatedAt: posts.updatedAt })
    .from(posts)
    .where(isVisible(ctx.now()))
    .orderBy(desc(posts.publishedAt));
  return rows.map((row) => ({ slug: row.slug, updatedAt: row.updatedAt.toISOString() }));
}
