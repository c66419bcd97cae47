import { and, eq, gt, lte, ne } from 'drizzle-orm';

import type { LatestPostLink } from '@portfolio/types';
import {
  type AdminPost,
  type Post,
  type PostSummary,
  postStatus,
  slugify,
} from '@portfolio/types/devlog';

import type { Db } from '../../db/client.js';
import { posts } from '../../db/schema.js';
import { badRequest, conflict, notFound, uniqueViolationConstraint } from '../../lib/errors.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { MediaUrlOf } from '../../lib/public-urls.js';
import { htmlOrPlainText, type MarkdownRenderer } from './markdown-renderer.js';

export type PostRow = typeof posts.$inferSelect;

/** The bus message that means "the posts changed": not a user id (those are uuids). */
export const POSTS_CHANGED = 'devlog:posts';

/** How many posts the home page, the feed and a game's viewer show. */
export const LATEST_POSTS = 3;
export const FEED_POSTS = 20;

/** A game's title in the catalogue, if the game is there. */
export type GameTitleOf = (gameId: string) => string | undefined;

/** Public reads kept until a change or until the next scheduled post's time. */
export interface PostsCache {
  validUntil: number;
  latest?: LatestPostLink[];
  feed?: Post[];
  bySlug?: Map<string, Post | null>;
}

/** What every devlog command and query works with. */
export interface DevlogContext {
  db: Db;
  bus: InvalidationBus;
  gameTitle: GameTitleOf;
  /** Renders off the event loop, with limits (markdown-renderer.ts). */
  markdown: MarkdownRenderer;
  now: () => Date;
  /** The public's address of an uploaded file (MEDIA_PUBLIC_URL's CDN). */
  mediaUrl: MediaUrlOf;
  /** This process's cache of public reads; undefined once a change dropped it. */
  cache: { current: PostsCache | undefined };
}

export const isVisible = (now: Date) => and(eq(posts.published, true), lte(posts.publishedAt, now));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const toSummary = ({ gameTitle, mediaUrl }: DevlogContext, row: PostRow): PostSummary => {
  const image = row.coverImage ?? row.bodyImage;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary ?? row.excerpt,
    gameId: row.gameId,
    gameTitle: row.gameId ? (gameTitle(row.gameId) ?? null) : null,
    coverImage: row.coverImage === null ? null : mediaUrl(row.coverImage),
    image: image === null ? null : mediaUrl(image),
    publishedAt: (row.publishedAt ?? row.createdAt).toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

// a stored body that cannot be rendered shows as its text, never as an error
export const toPost = async (ctx: DevlogContext, row: PostRow): Promise<Post> => ({
  ...toSummary(ctx, row),
  body: row.body,
  html: await htmlOrPlainText(() => ctx.markdown.postHtml(row.body), row.body),
});

export const toAdmin = ({ now }: DevlogContext, row: PostRow): AdminPost => {
  const publishedAt = row.publishedAt?.toISOString() ?? null;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    body: row.body,
    summary: row.summary,
    gameId: row.gameId,
    coverImage: row.coverImage,
    published: row.published,
    publishedAt,
    status: postStatus({ published: row.published, publishedAt }, now().getTime()),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

/** Drops what this process cached (a bus message does it too). */
export const invalidate = ({ cache }: DevlogContext) => {
  cache.current = undefined;
};

/** After a write: drop this process's cache and tell every other process to drop theirs. */
export const changed = (ctx: DevlogContext) => {
  invalidate(ctx);
  ctx.bus.publish(POSTS_CHANGED);
};

/** The cache, started afresh when a scheduled post's time has come (or after 5 minutes). */
export async function freshCache({ db, now, cache }: DevlogContext): Promise<PostsCache> {
  const time = now();
  if (cache.current && cache.current.validUntil > time.getTime()) {
    return cache.current;
  }
  const [next] = await db
    .select({ at: posts.publishedAt })
    .from(posts)
    .where(and(eq(posts.published, true), gt(posts.publishedAt, time)))
    .orderBy(posts.publishedAt)
    .limit(1);
  const fiveMinutes = time.getTime() + 5 * 60_000;
  cache.current = { validUntil: Math.min(next?.at?.getTime() ?? fiveMinutes, fiveMinutes) };
  return cache.current;
}

export async function findRow({ db }: DevlogContext, id: string): Promise<PostRow> {
  const [row] = UUID.test(id) ? await db.select().from(posts).where(eq(posts.id, id)) : [];
  if (!row) {
    throw notFound(`No post with the id '${id.slice(0, 64)}'`);
  }
  return row;
}

export const checkGame = ({ gameTitle }: DevlogContext, gameId: string | null | undefined) => {
  if (gameId && gameTitle(gameId) === undefined) {
    throw badRequest(`gameId: no game with the id '${gameId}'`);
  }
};

export async function slugTaken({ db }: DevlogContext, slug: string, exceptId?: string) {
  const [row] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(exceptId ? and(eq(posts.slug, slug), ne(posts.id, exceptId)) : eq(posts.slug, slug));
  return row !== undefined;
}

/** The title's slug, with -2, -3… when taken (only for a slug the author did not choose). */
export async function freeSlugFor(ctx: DevlogContext, title: string) {
  const base = slugify(title);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await slugTaken(ctx, candidate))) {
      return candidate;
    }
  }
  throw conflict(`No free slug for '${base}': give the post a slug of its own`);
}

export const slugConflict = (slug: string) =>
  conflict(`slug: another post already uses '${slug}'; choose another`);

/** A unique violation on the slug (two writers at once) as the same 409 as the check's. */
export async function withSlugConflict<T>(slug: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolationConstraint(error) === 'posts_slug_idx') {
      throw slugConflict(slug);
    }
    throw error;
  }
}
