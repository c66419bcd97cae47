import { desc, sql } from 'drizzle-orm';

import type { AdminPost } from '@portfolio/types/devlog';

import { posts } from '../../../db/schema.js';
import { type DevlogContext, findRow, toAdmin } from '../context.js';

/** Every post for the admin: drafts (no date) first, then newest first. */
export async function adminList(ctx: DevlogContext): Promise<AdminPost[]> {
  const rows = await ctx.db
    .select()
    .from(posts)
    .orderBy(sql`${posts.publishedAt} desc nulls first`, desc(posts.createdAt));
  return rows.map((row) => toAdmin(ctx, row));
}

export async function adminGet(ctx: DevlogContext, id: string): Promise<AdminPost> {
  return toAdmin(ctx, await findRow(ctx, id));
}

/** The titles of the posts (drafts too) that show any of `urls`: the media library asks. */
export async function titlesUsingMedia(
  { db }: DevlogContext,
  urls: readonly string[],
): Promise<string[]> {
  const rows = await db
    .select({ title: posts.title, body: posts.body, coverImage: posts.coverImage })
    .from(posts);
  return rows
    .filter((row) => urls.some((url) => row.coverImage === url || row.body.includes(url)))
    .map((row) => row.title);
}
