import type { LatestPostLink } from '@portfolio/types';
import type {
  AdminPost,
  CreatePostRequest,
  Post,
  PostAuditEntry,
  PostSummary,
  UpdatePostRequest,
} from '@portfolio/types/devlog';

import type { Db } from '../../db/client.js';
import type { MediaUrlOf } from '../../lib/public-urls.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { Actor } from '../../access/audit.js';
import { listPostAudit } from './audit.js';
import { createPost } from './commands/create-post.js';
import { deletePost } from './commands/delete-post.js';
import { seedWelcomePost } from './commands/seed-welcome-post.js';
import { updatePost } from './commands/update-post.js';
import { type DevlogContext, type GameTitleOf, invalidate, POSTS_CHANGED } from './context.js';
import { htmlOrPlainText, type MarkdownRenderer } from './markdown-renderer.js';
import { adminGet, adminList, titlesUsingMedia } from './queries/admin.js';
import { feedPosts, latestLinks } from './queries/latest.js';
import {
  getPublished,
  getPublishedCached,
  listPublished,
  sitemapEntries,
} from './queries/published.js';

export {
  FEED_POSTS,
  type GameTitleOf,
  LATEST_POSTS,
  POSTS_CHANGED,
  type PostRow,
} from './context.js';
export { WELCOME_POST } from './commands/seed-welcome-post.js';

/*
 * The devlog (posts with a markdown body, optionally about one game). A post is public when it
 * is published and its date has come: a later date schedules it. Every change is one
 * transaction with its audit entry, then a bus message (`devlog:posts`) tells every process to
 * drop what it cached from the posts (the home page's latest posts, the feed, cards). One file
 * per command (commands/) and per query (queries/) over a DevlogContext; this factory assembles
 * them.
 */

export interface DevlogService {
  /** Whether any post (draft or published) shows one of `urls`: the media library asks. */
  /** The titles of the posts (drafts too) that show any of `urls`. */
  titlesUsingMedia(urls: readonly string[]): Promise<string[]>;
  listPublished(query: {
    game?: string | undefined;
    page: number;
    pageSize: number;
  }): Promise<{ posts: PostSummary[]; total: number }>;
  /** A public post by its slug; undefined for a draft, a scheduled post or none. */
  getPublished(slug: string): Promise<Post | undefined>;
  /** getPublished, cached until a change (the post page's card: one query per post, not per visit). */
  getPublishedCached(slug: string): Promise<Post | undefined>;
  /** The newest public posts with their bodies (the feed), cached until a change. */
  feedPosts(): Promise<Post[]>;
  /** The home page's links to the newest posts, cached until a change or a scheduled post's time. */
  latestLinks(): Promise<LatestPostLink[]>;
  /** Every public post's address and date (sitemap.xml). */
  sitemapEntries(): Promise<Array<{ slug: string; updatedAt: string }>>;
  adminList(): Promise<AdminPost[]>;
  adminGet(id: string): Promise<AdminPost>;
  create(input: CreatePostRequest, actor: Actor): Promise<AdminPost>;
  update(id: string, input: UpdatePostRequest, actor: Actor): Promise<AdminPost>;
  delete(id: string, actor: Actor): Promise<void>;
  audit(): Promise<PostAuditEntry[]>;
  /**
   * At a site's first start (no post was ever written): one published welcome post, so the
   * devlog, the home page's list and the feed show what they are for.
   */
  seedWelcomePost(): Promise<void>;
  /** A body as the post page will show it (the editor's preview); 422 when it cannot render. */
  previewHtml(body: string): Promise<string>;
  /** A post's body as the feed carries it: escaped plain text when it cannot render. */
  feedHtml(body: string, origin: string): Promise<string>;
  /** Drops what this process cached (a bus message does it too). */
  invalidate(): void;
  /** Ends its markdown renderer's worker (at shutdown). */
  close(): Promise<void>;
}

export function createDevlogService(deps: {
  db: Db;
  bus: InvalidationBus;
  gameTitle: GameTitleOf;
  /** Renders off the event loop, with limits (markdown-renderer.ts). */
  markdown: MarkdownRenderer;
  now?: () => number;
  /** The public's address of an uploaded file (MEDIA_PUBLIC_URL's CDN); default as stored. */
  mediaUrl?: MediaUrlOf;
}): DevlogService {
  const { db, bus, markdown } = deps;
  const ctx: DevlogContext = {
    db,
    bus,
    gameTitle: deps.gameTitle,
    markdown,
    now: () => new Date((deps.now ?? Date.now)()),
    mediaUrl: deps.mediaUrl ?? ((url) => url),
    cache: { current: undefined },
  };
  const dropCache = () => invalidate(ctx);
  bus.subscribe((message) => {
    if (message === POSTS_CHANGED) {
      dropCache();
    }
  });
  bus.onResync?.(dropCache);

  return {
    titlesUsingMedia: (urls) => titlesUsingMedia(ctx, urls),
    listPublished: (query) => listPublished(ctx, query),
    getPublished: (slug) => getPublished(ctx, slug),
    getPublishedCached: (slug) => getPublishedCached(ctx, slug),
    feedPosts: () => feedPosts(ctx),
    latestLinks: () => latestLinks(ctx),
    sitemapEntries: () => sitemapEntries(ctx),
    adminList: () => adminList(ctx),
    adminGet: (id) => adminGet(ctx, id),
    create: (input, actor) => createPost(ctx, input, actor),
    update: (id, input, actor) => updatePost(ctx, id, input, actor),
    delete: (id, actor) => deletePost(ctx, id, actor),
    audit: () => listPostAudit(db),
    seedWelcomePost: () => seedWelcomePost(ctx),
    previewHtml: (body) => markdown.postHtml(body),
    feedHtml: (body, origin) => htmlOrPlainText(() => markdown.feedHtml(body, origin), body),
    invalidate: dropCache,
    close: () => markdown.close(),
  };
}
