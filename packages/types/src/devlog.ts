import { z } from 'zod';

import { GameId } from './game-host.js';

/*
 * The devlog's contracts: posts (markdown, optionally about one game), the public list and page,
 * the admin's editor and the posts' audit log. Imported as '@portfolio/types/devlog', so the home
 * page's entry never builds these schemas (the home page reads its latest posts from the page's
 * SiteConfig instead).
 */

/** A post's address segment: lower-case words joined by single dashes (`my-first-post`). */
export const PostSlug = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lower-case letters and digits joined by single dashes',
  );
export type PostSlug = z.infer<typeof PostSlug>;

/**
 * An image address a post may show: a site path (`/assets/…`, an uploaded file) or an https
 * address. Never another protocol (a `javascript:` cover would be a link on a social card).
 */
export const PostImageUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^(\/(?!\/)\S*|https:\/\/[^\s/]+\S*)$/, 'must be a site path (/…) or an https address');

export const POST_TITLE_MAX = 200;
export const POST_SUMMARY_MAX = 300;
export const POST_BODY_MAX = 100_000;

/** Where a post stands: never shown, shown from its date on, or shown. */
export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** A post in lists (the devlog, the home page, a game's viewer, the feed). */
export const PostSummary = z.object({
  id: z.string(),
  slug: PostSlug,
  title: z.string(),
  /** The author's summary, else the body's first words as plain text. */
  summary: z.string(),
  gameId: z.string().nullable(),
  /** The game's title when the post names a game still in the catalogue. */
  gameTitle: z.string().nullable(),
  /** The cover the author chose (shown above the body), or null. */
  coverImage: z.string().nullable(),
  /** The post's cover, else the first image of its body, else null (its social card). */
  image: z.string().nullable(),
  /** ISO 8601. */
  publishedAt: z.string(),
  updatedAt: z.string(),
});
export type PostSummary = z.infer<typeof PostSummary>;

/**
 * A post with its markdown body and that body as the page shows it: HTML made on the server by
 * the spec's markdown rules, sanitized (no raw HTML, script, event handler or link of another
 * protocol than http, https, irc, ircs, mailto, xmpp), so the post page needs no markdown code.
 */
export const Post = PostSummary.extend({ body: z.string(), html: z.string() });
export type Post = z.infer<typeof Post>;

export const POSTS_PAGE_SIZE_MAX = 50;

/** GET /api/posts: published posts, newest first. */
export const PostsQuery = z.object({
  game: GameId.optional(),
  page: z.coerce.number().int().min(1, 'must be at least 1').max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(POSTS_PAGE_SIZE_MAX).default(10),
});
export type PostsQuery = z.infer<typeof PostsQuery>;

export const PostsResponse = z.object({
  posts: z.array(PostSummary),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type PostsResponse = z.infer<typeof PostsResponse>;

export const PostResponse = z.object({ post: Post });
export type PostResponse = z.infer<typeof PostResponse>;

/** A post as the admin's editor sees it: drafts and scheduled posts too, every field as stored. */
export const AdminPost = z.object({
  id: z.string(),
  slug: PostSlug,
  title: z.string(),
  body: z.string(),
  /** The author's own summary; null = derived from the body. */
  summary: z.string().nullable(),
  gameId: z.string().nullable(),
  coverImage: z.string().nullable(),
  published: z.boolean(),
  /** ISO 8601; null for a draft never given a date. */
  publishedAt: z.string().nullable(),
  status: z.enum(POST_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminPost = z.infer<typeof AdminPost>;

export const AdminPostsResponse = z.object({ posts: z.array(AdminPost) });
export type AdminPostsResponse = z.infer<typeof AdminPostsResponse>;
export const AdminPostResponse = z.object({ post: AdminPost });
export type AdminPostResponse = z.infer<typeof AdminPostResponse>;

const PostFields = {
  title: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(POST_TITLE_MAX, `must be at most ${POST_TITLE_MAX} characters`),
  slug: PostSlug,
  body: z.string().max(POST_BODY_MAX, `must be at most ${POST_BODY_MAX} characters`),
  summary: z
    .string()
    .trim()
    .max(POST_SUMMARY_MAX, `must be at most ${POST_SUMMARY_MAX} characters`)
    .nullable(),
  gameId: GameId.nullable(),
  coverImage: PostImageUrl.nullable(),
  published: z.boolean(),
  publishedAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date and time' })
    .nullable(),
};

/**
 * POST /api/admin/posts. Only the title is required; the slug is made from it when absent, a
 * publish without a date is dated now, a date in the future schedules the post.
 */
export const CreatePostRequest = z.strictObject({
  title: PostFields.title,
  slug: PostFields.slug.optional(),
  body: PostFields.body.default(''),
  summary: PostFields.summary.optional(),
  gameId: PostFields.gameId.optional(),
  coverImage: PostFields.coverImage.optional(),
  published: PostFields.published.default(false),
  publishedAt: PostFields.publishedAt.optional(),
});
export type CreatePostRequest = z.infer<typeof CreatePostRequest>;

/** PATCH /api/admin/posts/:id: the fields to change. */
export const UpdatePostRequest = z
  .strictObject({
    title: PostFields.title.optional(),
    slug: PostFields.slug.optional(),
    body: PostFields.body.optional(),
    summary: PostFields.summary.optional(),
    gameId: PostFields.gameId.optional(),
    coverImage: PostFields.coverImage.optional(),
    published: PostFields.published.optional(),
    publishedAt: PostFields.publishedAt.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: 'names no field to change' });
export type UpdatePostRequest = z.infer<typeof UpdatePostRequest>;

/** POST /api/admin/posts/preview: a body as the post page will show it (the editor's preview). */
export const PostPreviewRequest = z.strictObject({ body: PostFields.body });
export type PostPreviewRequest = z.infer<typeof PostPreviewRequest>;
export const PostPreviewResponse = z.object({ html: z.string() });
export type PostPreviewResponse = z.infer<typeof PostPreviewResponse>;

export const POST_AUDIT_ACTIONS = ['create', 'update', 'publish', 'unpublish', 'delete'] as const;
export type PostAuditAction = (typeof POST_AUDIT_ACTIONS)[number];

export const PostAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  action: z.enum(POST_AUDIT_ACTIONS),
  actorUsername: z.string(),
  postId: z.string().nullable(),
  /** The post's title when the change was made (kept after a delete). */
  postTitle: z.string(),
  detail: z.string(),
});
export type PostAuditEntry = z.infer<typeof PostAuditEntry>;

export const PostAuditResponse = z.object({ entries: z.array(PostAuditEntry) });
export type PostAuditResponse = z.infer<typeof PostAuditResponse>;

/**
 * A slug made from a title: accents dropped, lower case, words joined by dashes, at most 80
 * characters; 'post' when nothing is left.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? 'post' : slug;
}

/** Where a post stands at `now`. */
export function postStatus(
  post: { published: boolean; publishedAt: string | null },
  now = Date.now(),
): PostStatus {
  if (!post.published) {
    return 'draft';
  }
  return post.publishedAt !== null && Date.parse(post.publishedAt) > now
    ? 'scheduled'
    : 'published';
}
