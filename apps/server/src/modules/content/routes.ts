import { type RequestHandler, Router } from 'express';
import { z } from 'zod';

import {
  type AdminGalleryProjectResponse,
  type AdminGalleryResponse,
  type AdminTutorialResponse,
  type AdminTutorialsResponse,
  CONTENT_KINDS,
  type ContentAuditResponse,
  CreateGalleryProjectRequest,
  CreateTutorialRequest,
  type GalleryResponse,
  ReorderRequest,
  SiteTextsRequest,
  type TutorialsResponse,
  UpdateGalleryProjectRequest,
  UpdateTutorialRequest,
} from '@portfolio/types/content';

import { parseInput } from '../../lib/validate.js';
import { actorOf, gameAdminAuth } from '../../access/admin-guard.js';
import type { GameHost } from '../game-host/index.js';
import type { Content } from './service.js';

/*
 * The content API:
 *
 *   GET    /api/gallery, /api/tutorials              the published items, in order (spec shapes)
 *   GET    /api/admin/gallery, /api/admin/tutorials  every item with status, position and times
 *   POST   /api/admin/gallery, /api/admin/tutorials  add (the spec's fields + published)
 *   PATCH  /api/admin/gallery/:id, …/tutorials/:id   edit, publish, unpublish
 *   DELETE /api/admin/gallery/:id, …/tutorials/:id   delete
 *   PUT    /api/admin/gallery/order, …/tutorials/order   { ids } in the new order
 *   GET    /api/admin/content/audit[?kind=&itemId=]  the content's history, newest first
 *   GET    /api/admin/site, PUT /api/admin/site      the site's name and the home page's texts
 *
 * The admin calls take an admin session or an admin API token, as the games admin API does.
 */

const AuditQuery = z.object({
  kind: z.enum(CONTENT_KINDS).optional(),
  itemId: z.string().max(64).optional(),
});

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

const idOf = (params: Record<string, string | string[] | undefined>) => {
  const id = params.id;
  return typeof id === 'string' ? id : '';
};

export function createContentRouter(deps: {
  content: Content;
  tokens: GameHost['tokens'];
}): Router {
  const { content } = deps;
  const router = Router();
  const admin = gameAdminAuth({ tokens: deps.tokens });

  // public reads come from memory; a change shows at the next request
  router.get('/gallery', (_req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .json({ projects: [...content.store.gallery()] } satisfies GalleryResponse);
  });
  router.get('/tutorials', (_req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .json({ tutorials: [...content.store.tutorials()] } satisfies TutorialsResponse);
  });

  router.use(
    ['/admin/gallery', '/admin/tutorials', '/admin/content', '/admin/site'],
    noStore,
    admin,
  );

  router.get('/admin/site', (_req, res) => {
    res.json(content.site.get() satisfies SiteTextsRequest);
  });
  router.put('/admin/site', async (req, res) => {
    const input = parseInput(SiteTextsRequest, req.body);
    res.json((await content.site.update(input, actorOf(res))) satisfies SiteTextsRequest);
  });

  router.get('/admin/gallery', async (_req, res) => {
    res.json({ projects: await content.gallery.list() } satisfies AdminGalleryResponse);
  });
  router.post('/admin/gallery', async (req, res) => {
    const input = parseInput(CreateGalleryProjectRequest, req.body);
    const project = await content.gallery.create(input, actorOf(res));
    res.status(201).json({ project } satisfies AdminGalleryProjectResponse);
  });
  router.put('/admin/gallery/order', async (req, res) => {
    const { ids } = parseInput(ReorderRequest, req.body);
    res.json({
      projects: await content.gallery.reorder(ids, actorOf(res)),
    } satisfies AdminGalleryResponse);
  });
  router.patch('/admin/gallery/:id', async (req, res) => {
    const input = parseInput(UpdateGalleryProjectRequest, req.body);
    const project = await content.gallery.update(idOf(req.params), input, actorOf(res));
    res.json({ project } satisfies AdminGalleryProjectResponse);
  });
  router.delete('/admin/gallery/:id', async (req, res) => {
    await content.gallery.delete(idOf(req.params), actorOf(res));
    res.status(204).end();
  });

  router.get('/admin/tutorials', async (_req, res) => {
    res.json({ tutorials: await content.tutorials.list() } satisfies AdminTutorialsResponse);
  });
  router.post('/admin/tutorials', async (req, res) => {
    const input = parseInput(CreateTutorialRequest, req.body);
    const tutorial = await content.tutorials.create(input, actorOf(res));
    res.status(201).json({ tutorial } satisfies AdminTutorialResponse);
  });
  router.put('/admin/tutorials/order', async (req, res) => {
    const { ids } = parseInput(ReorderRequest, req.body);
    res.json({
      tutorials: await content.tutorials.reorder(ids, actorOf(res)),
    } satisfies AdminTutorialsResponse);
  });
  router.patch('/admin/tutorials/:id', async (req, res) => {
    const input = parseInput(UpdateTutorialRequest, req.body);
    const tutorial = await content.tutorials.update(idOf(req.params), input, actorOf(res));
    res.json({ tutorial } satisfies AdminTutorialResponse);
  });
  router.delete('/admin/tutorials/:id', async (req, res) => {
    await content.tutorials.delete(idOf(req.params), actorOf(res));
    res.status(204).end();
  });

  router.get('/admin/content/audit', async (req, res) => {
    const { kind, itemId } = parseInput(AuditQuery, req.query);
    res.json({
      entries: await content.audit({
        ...(kind ? { kind } : {}),
        ...(itemId ? { itemId } : {}),
      }),
    } satisfies ContentAuditResponse);
  });

  return router;
}
