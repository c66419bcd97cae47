import { createHash } from 'node:crypto';

import { type Request, type RequestHandler, Router } from 'express';
import { z } from 'zod';

import {
  type AdminPostResponse,
  type AdminPostsResponse,
  CreatePostRequest,
  type Post,
  type PostAuditResponse,
  type PostResponse,
  PostSlug,
  PostsQuery,
  type PostsResponse,
  PostPreviewRequest,
  type PostPreviewResponse,
  UpdatePostRequest,
} from '@portfolio/types/devlog';
import { SITE_NAME } from '@portfolio/types';

import { notFound } from '../../lib/errors.js';
import { parseInput } from '../../lib/validate.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import type { Actor } from '../../access/audit.js';
import { atomFeed } from './feed.js';
import type { DevlogService } from './service.js';

/*
 * The devlog's API:
 *
 *   GET    /api/posts[?game=&page=&pageSize=]   published posts, newest first (PostsResponse)
 *   GET    /api/posts/:slug                     one published post (404 for drafts, scheduled)
 *   GET    /api/admin/posts                     every post, drafts and scheduled ones too
 *   GET    /api/admin/posts/audit               the posts' audit log
 *   GET    /api/admin/posts/:id                 one post for the editor
 *   POST   /api/admin/posts                     add a post (201)
 *   PATCH  /api/admin/posts/:id                 edit, publish, unpublish, schedule
 *   DELETE /api/admin/posts/:id                 delete (204)
 *   POST   /api/admin/posts/preview             a body as the post page shows it
 *
 * and GET /feed.xml (Atom 1.0), outside /api.
 */

const SlugParam = z.object({ slug: z.string().max(200) });

const actorOf = (req: Request): NonNullable<Actor> => {
  const { user } = sessionOf(req);
  return { id: user.id, username: user.username };
};

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/** The JSON routes: behind the API's same-origin guard, JSON parser and sessions. */
export function createDevlogRouter(deps: { devlog: DevlogService }): Router {
  const { devlog } = deps;
  const router = Router();

  router.get('/posts', async (req, res) => {
    const query = parseInput(PostsQuery, req.query);
    const { posts, total } = await devlog.listPublished(query);
    res
      .set('Cache-Control', 'no-cache')
      .json({ posts, total, page: query.page, pageSize: query.pageSize } satisfies PostsResponse);
  });

  router.get('/posts/:slug', async (req, res) => {
    const { slug } = parseInput(SlugParam, req.params);
    const post = PostSlug.safeParse(slug).success
      ? await devlog.getPublishedCached(slug)
      : undefined;
    if (!post) {
      throw notFound(`No published post at '${slug.slice(0, 100)}'`);
    }
    res.set('Cache-Control', 'no-cache').json({ post } satisfies PostResponse);
  });

  router.use('/admin/posts', noStore, requireAdmin);

  router.get('/admin/posts', async (_req, res) => {
    res.json({ posts: await devlog.adminList() } satisfies AdminPostsResponse);
  });

  router.get('/admin/posts/audit', async (_req, res) => {
    res.json({ entries: await devlog.audit() } satisfies PostAuditResponse);
  });

  router.get('/admin/posts/:id', async (req, res) => {
    res.json({ post: await devlog.adminGet(String(req.params.id)) } satisfies AdminPostResponse);
  });

  router.post('/admin/posts', async (req, res) => {
    const input = parseInput(CreatePostRequest, req.body);
    const post = await devlog.create(input, actorOf(req));
    res.status(201).json({ post } satisfies AdminPostResponse);
  });

  // the editor's preview: the same rendering as the post page (no write, no audit)
  router.post('/admin/posts/preview', async (req, res) => {
    const { body } = parseInput(PostPreviewRequest, req.body);
    res.json({ html: await devlog.previewHtml(body) } satisfies PostPreviewResponse);
  });

  router.patch('/admin/posts/:id', async (req, res) => {
    const input = parseInput(UpdatePostRequest, req.body);
    const post = await devlog.update(String(req.params.id), input, actorOf(req));
    res.json({ post } satisfies AdminPostResponse);
  });

  router.delete('/admin/posts/:id', async (req, res) => {
    await devlog.delete(String(req.params.id), actorOf(req));
    res.status(204).end();
  });

  return router;
}

/**
 * GET /feed.xml: the Atom feed, rendered once per set of posts and origin (the posts' cache is
 * dropped on every change), revalidated by ETag, kept by caches for 5 minutes.
 */
export function createFeedRouter(deps: {
  devlog: DevlogService;
  /** The absolute origin of links (PUBLIC_ORIGIN, else the request's). */
  originOf: (req: Request) => string;
}): Router {
  const router = Router();
  const rendered = new WeakMap<readonly Post[], Map<string, { xml: string; etag: string }>>();
  router.get('/feed.xml', async (req, res) => {
    const posts = await deps.devlog.feedPosts();
    const origin = deps.originOf(req);
    const byOrigin = rendered.get(posts) ?? new Map<string, { xml: string; etag: string }>();
    rendered.set(posts, byOrigin);
    let feed = byOrigin.get(origin);
    if (!feed) {
      const xml = await atomFeed(origin, posts, SITE_NAME, (body) =>
        deps.devlog.feedHtml(body, origin),
      );
      feed = {
        xml,
        etag: `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`,
      };
      if (byOrigin.size < 8) {
        byOrigin.set(origin, feed);
      }
    }
    res.set({
      'Content-Type': 'application/atom+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      ETag: feed.etag,
    });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(feed.xml);
  });
  return router;
}
