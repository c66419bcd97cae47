import { and, count, desc, eq, lte, gt, ne, sql } from 'drizzle-orm';

import type { LatestPostLink } from '@portfolio/types';
import {
  type AdminPost,
  type CreatePostRequest,
  type Post,
  type PostAuditEntry,
  type PostSummary,
  postStatus,
  slugify,
  type UpdatePostRequest,
} from '@portfolio/types/devlog';

import type { Db } from '../../db/client.js';
import { postAuditLog, posts } from '../../db/schema.js';
import { badRequest, conflict, notFound, uniqueViolationConstraint } from '../../lib/errors.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { Actor } from '../../access/audit.js';
import { listPostAudit, recordPostAudit } from './audit.js';
import { htmlOrPlainText, type MarkdownRenderer } from './markdown-renderer.js';

/*
 * The devlog (posts with a markdown body, optionally about one game). A post is public when it
 * is published and its date has come: a later date schedules it. Every change is one
 * transaction with its audit entry, then a bus message (`devlog:posts`) tells every process to
 * drop what it cached from the posts (the home page's latest posts, the feed, cards).
 */

export type PostRow = typeof posts.$inferSelect;

/** The bus message that means "the posts changed": not a user id (those are uuids). */
export const POSTS_CHANGED = 'devlog:posts';

/** How many posts the home page, the feed and a game's viewer show. */
export const LATEST_POSTS = 3;
export const FEED_POSTS = 20;

/** A game's title in the catalogue, if the game is there. */
export type GameTitleOf = (gameId: string) => string | undefined;

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

/** The post a new site starts with (edited or deleted like any other; never written again). */
export const WELCOME_POST = {
  slug: 'welcome-to-the-devlog',
  title: 'Welcome to the devlog',
  summary: null,
  coverImage: null,
  gameId: null,
  body: [
    'This is where news about the games and projects appears: what changed, what is next and',
    'how things are made.',
    '',
    '- Play the [games](/games), browse the [gallery](/Gallery) and read the [tutorials](/Tutorials).',
    '- Follow the [feed](/feed.xml) in any feed reader to hear about new posts.',
  ].join('\n'),
};

const isVisible = (now: Date) => and(eq(posts.published, true), lte(posts.publishedAt, now));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createDevlogService(deps: {
  db: Db;
  bus: InvalidationBus;
  gameTitle: GameTitleOf;
  /** Renders off the event loop, with limits (markdown-renderer.ts). */
  markdown: MarkdownRenderer;
  now?: () => number;
}): DevlogService {
  const { db, bus, gameTitle, markdown } = deps;
  const now = () => new Date((deps.now ?? Date.now)());

  const toSummary = (row: PostRow): PostSummary => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary ?? row.excerpt,
    gameId: row.gameId,
    gameTitle: row.gameId ? (gameTitle(row.gameId) ?? null) : null,
    coverImage: row.coverImage,
    image: row.coverImage ?? row.bodyImage,
    publishedAt: (row.publishedAt ?? row.createdAt).toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
  // a stored body that cannot be rendered shows as its text, never as an error
  const toPost = async (row: PostRow): Promise<Post> => ({
    ...toSummary(row),
    body: row.body,
    html: await htmlOrPlainText(() => markdown.postHtml(row.body), row.body),
  });
  const toAdmin = (row: PostRow): AdminPost => {
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

  // caches of public reads, valid until a change or until the next scheduled post's time
  let cache:
    | {
        validUntil: number;
        latest?: LatestPostLink[];
        feed?: Post[];
        bySlug?: Map<string, Post | null>;
      }
    | undefined;
  const invalidate = () => {
    cache = undefined;
  };
  bus.subscribe((message) => {
    if (message === POSTS_CHANGED) {
      invalidate();
    }
  });
  bus.onResync?.(invalidate);

  /** The cache, started afresh when a scheduled post's time has come (or after 5 minutes). */
  const freshCache = async () => {
    const time = now();
    if (cache && cache.validUntil > time.getTime()) {
      return cache;
    }
    const [next] = await db
      .select({ at: posts.publishedAt })
      .from(posts)
      .where(and(eq(posts.published, true), gt(posts.publishedAt, time)))
      .orderBy(posts.publishedAt)
      .limit(1);
    const fiveMinutes = time.getTime() + 5 * 60_000;
    cache = { validUntil: Math.min(next?.at?.getTime() ?? fiveMinutes, fiveMinutes) };
    return cache;
  };

  const findRow = async (id: string): Promise<PostRow> => {
    const [row] = UUID.test(id) ? await db.select().from(posts).where(eq(posts.id, id)) : [];
    if (!row) {
      throw notFound(`No post with the id '${id.slice(0, 64)}'`);
    }
    return row;
  };

  const checkGame = (gameId: string | null | undefined) => {
    if (gameId && gameTitle(gameId) === undefined) {
      throw badRequest(`gameId: no game with the id '${gameId}'`);
    }
  };

  const slugTaken = async (slug: string, exceptId?: string) => {
    const [row] = await db
      .select({ id: posts.id })
      .from(posts)
      .where(exceptId ? and(eq(posts.slug, slug), ne(posts.id, exceptId)) : eq(posts.slug, slug));
    return row !== undefined;
  };

  /** The title's slug, with -2, -3… when taken (only for a slug the author did not choose). */
  const freeSlugFor = async (title: string) => {
    const base = slugify(title);
    for (let n = 1; n < 1000; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await slugTaken(candidate))) {
        return candidate;
      }
    }
    throw conflict(`No free slug for '${base}': give the post a slug of its own`);
  };

  const slugConflict = (slug: string) =>
    conflict(`slug: another post already uses '${slug}'; choose another`);

  /** A unique violation on the slug (two writers at once) as the same 409 as the check's. */
  const withSlugConflict = async <T>(slug: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (uniqueViolationConstraint(error) === 'posts_slug_idx') {
        throw slugConflict(slug);
      }
      throw error;
    }
  };

  const getPublished = async (slug: string) => {
    const [row] = await db
      .select()
      .from(posts)
      .where(and(eq(posts.slug, slug), isVisible(now())));
    return row ? toPost(row) : undefined;
  };

  const changed = () => {
    invalidate();
    bus.publish(POSTS_CHANGED);
  };

  return {
    async titlesUsingMedia(urls) {
      const rows = await db
        .select({ title: posts.title, body: posts.body, coverImage: posts.coverImage })
        .from(posts);
      return rows
        .filter((row) => urls.some((url) => row.coverImage === url || row.body.includes(url)))
        .map((row) => row.title);
    },
    async listPublished({ game, page, pageSize }) {
      const where = and(isVisible(now()), game ? eq(posts.gameId, game) : undefined);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(posts)
          .where(where)
          .orderBy(desc(posts.publishedAt), desc(posts.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ value: count() }).from(posts).where(where),
      ]);
      return { posts: rows.map(toSummary), total: total?.value ?? 0 };
    },

    getPublished,

    async getPublishedCached(slug) {
      const current = await freshCache();
      current.bySlug ??= new Map();
      const known = current.bySlug.get(slug);
      if (known !== undefined) {
        return known ?? undefined;
      }
      const post = await getPublished(slug);
      // made-up slugs are not remembered: they would crowd out the real ones
      if (post && current.bySlug.size < 1000) {
        current.bySlug.set(slug, post);
      }
      return post;
    },

    async feedPosts() {
      const current = await freshCache();
      if (!current.feed) {
        const rows = await db
          .select()
          .from(posts)
          .where(isVisible(now()))
          .orderBy(desc(posts.publishedAt), desc(posts.id))
          .limit(FEED_POSTS);
        current.feed = await Promise.all(rows.map(toPost));
      }
      return current.feed;
    },

    async latestLinks() {
      const current = await freshCache();
      if (!current.latest) {
        const rows = await db
          .select({ slug: posts.slug, title: posts.title, publishedAt: posts.publishedAt })
          .from(posts)
          .where(isVisible(now()))
          .orderBy(desc(posts.publishedAt), desc(posts.id))
          .limit(LATEST_POSTS);
        current.latest = rows.map((row) => ({
          slug: row.slug,
          title: row.title,
          publishedAt: (row.publishedAt ?? new Date(0)).toISOString(),
        }));
      }
      return current.latest;
    },

    async sitemapEntries() {
      const rows = await db
        .select({ slug: posts.slug, updatedAt: posts.updatedAt })
        .from(posts)
        .where(isVisible(now()))
        .orderBy(desc(posts.publishedAt));
      return rows.map((row) => ({ slug: row.slug, updatedAt: row.updatedAt.toISOString() }));
    },

    async adminList() {
      // drafts (no date) first, then newest first
      const rows = await db
        .select()
        .from(posts)
        .orderBy(sql`${posts.publishedAt} desc nulls first`, desc(posts.createdAt));
      return rows.map(toAdmin);
    },

    async adminGet(id) {
      return toAdmin(await findRow(id));
    },

    async create(input, actor) {
      checkGame(input.gameId);
      if (input.slug && (await slugTaken(input.slug))) {
        throw slugConflict(input.slug);
      }
      const slug = input.slug ?? (await freeSlugFor(input.title));
      // before the transaction: a body that cannot render is refused (422) with nothing written
      const described = await markdown.describe(input.body);
      const publishedAt = input.publishedAt
        ? new Date(input.publishedAt)
        : input.published
          ? now()
          : null;
      const row = await withSlugConflict(slug, () =>
        db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(posts)
            .values({
              slug,
              title: input.title,
              body: input.body,
              summary: input.summary || null,
              excerpt: described.excerpt,
              bodyImage: described.image,
              coverImage: input.coverImage ?? null,
              gameId: input.gameId ?? null,
              published: input.published,
              publishedAt,
            })
            .returning();
          if (!inserted) {
            throw new Error('insert returned no row');
          }
          await recordPostAudit(tx, {
            action: 'create',
            actor,
            postId: inserted.id,
            postTitle: inserted.title,
            detail: `slug ${slug}${input.published ? ', published' : ', draft'}`,
          });
          return inserted;
        }),
      );
      changed();
      return toAdmin(row);
    },

    async update(id, input, actor) {
      const before = await findRow(id);
      checkGame(input.gameId);
      if (input.slug && input.slug !== before.slug && (await slugTaken(input.slug, id))) {
        throw slugConflict(input.slug);
      }
      const values: Partial<typeof posts.$inferInsert> = { updatedAt: now() };
      const fields: string[] = [];
      const set = <K extends keyof typeof posts.$inferInsert>(
        key: K,
        value: (typeof posts.$inferInsert)[K] | undefined,
        current: unknown,
      ) => {
        const same =
          value instanceof Date && current instanceof Date
            ? value.getTime() === current.getTime()
            : value === current;
        if (value !== undefined && !same) {
          values[key] = value;
          fields.push(key);
        }
      };
      set('title', input.title, before.title);
      set('slug', input.slug, before.slug);
      set('body', input.body, before.body);
      set(
        'summary',
        input.summary === undefined ? undefined : input.summary || null,
        before.summary,
      );
      set('gameId', input.gameId, before.gameId);
      set('coverImage', input.coverImage, before.coverImage);
      set(
        'publishedAt',
        input.publishedAt === undefined
          ? undefined
          : input.publishedAt === null
            ? null
            : new Date(input.publishedAt),
        before.publishedAt,
      );
      set('published', input.published, before.published);
      const isPublishing = input.published === true && !before.published;
      // a post published without a date is dated now
      if (input.published === true && (values.publishedAt ?? before.publishedAt) === null) {
        values.publishedAt = now();
      }
      if (input.body !== undefined && input.body !== before.body) {
        const described = await markdown.describe(input.body);
        values.excerpt = described.excerpt;
        values.bodyImage = described.image;
      }
      if (fields.length === 0) {
        return toAdmin(before);
      }
      const action = isPublishing
        ? 'publish'
        : input.published === false && before.published
          ? 'unpublish'
          : 'update';
      const slug = values.slug ?? before.slug;
      const row = await withSlugConflict(slug, () =>
        db.transaction(async (tx) => {
          const [updated] = await tx.update(posts).set(values).where(eq(posts.id, id)).returning();
          if (!updated) {
            throw notFound(`No post with the id '${id}'`);
          }
          await recordPostAudit(tx, {
            action,
            actor,
            postId: id,
            postTitle: updated.title,
            detail: `changed ${fields.join(', ')}`,
          });
          return updated;
        }),
      );
      changed();
      return toAdmin(row);
    },

    async delete(id, actor) {
      const before = await findRow(id);
      await db.transaction(async (tx) => {
        await tx.delete(posts).where(eq(posts.id, id));
        await recordPostAudit(tx, {
          action: 'delete',
          actor,
          postId: id,
          postTitle: before.title,
          detail: `slug ${before.slug}`,
        });
      });
      changed();
    },

    audit: () => listPostAudit(db),

    async seedWelcomePost() {
      const [written] = await db.select({ id: postAuditLog.id }).from(postAuditLog).limit(1);
      if (written) {
        return;
      }
      const described = await markdown.describe(WELCOME_POST.body);
      await db.transaction(async (tx) => {
        // two replicas starting together: the slug lets one of them in
        const [inserted] = await tx
          .insert(posts)
          .values({
            ...WELCOME_POST,
            excerpt: described.excerpt,
            bodyImage: described.image,
            published: true,
            publishedAt: now(),
          })
          .onConflictDoNothing()
          .returning();
        if (inserted) {
          await recordPostAudit(tx, {
            action: 'create',
            actor: null,
            postId: inserted.id,
            postTitle: inserted.title,
            detail: 'the welcome post of a new site',
          });
        }
      });
      changed();
    },
    previewHtml: (body) => markdown.postHtml(body),
    feedHtml: (body, origin) => htmlOrPlainText(() => markdown.feedHtml(body, origin), body),
    invalidate,
    close: () => markdown.close(),
  };
}
