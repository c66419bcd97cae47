import express, { type Request, type RequestHandler, Router } from 'express';

import {
  ACHIEVEMENT_ICON_MAX_BYTES,
  AchievementKey,
  type AchievementDefResponse,
  type AdminAchievementsResponse,
  type GameAchievementsResponse,
  PutAchievementRequest,
} from '@portfolio/types/achievements';

import { badRequest, notFound } from '../../lib/errors.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { sendObject } from '../../lib/storage/send-object.js';
import { parseInput } from '../../lib/validate.js';
import { binaryBodyGuard, mediaTypeOf } from '../../lib/binary-body-guard.js';
import { actorOf } from '../../access/admin-guard.js';
import { IMAGE_TYPES, type ResolveGame } from '../game-host/index.js';
import {
  ACHIEVEMENT_ICON_FILE,
  type AchievementService,
  achievementIconPrefix,
} from './service.js';

/*
 *   GET    /api/games/:gameId/achievements                 a published game's catalogue (public;
 *                                                          the signed-in player's unlocks)
 *   GET    /api/games/:gameId/achievement-icons/:file      an icon (the site serves it: no other
 *                                                          origin in img-src)
 *   GET    /api/admin/games/:id/achievements               definitions and undefined names
 *   PUT    /api/admin/games/:id/achievements/:key          define, change or adopt one
 *   DELETE /api/admin/games/:id/achievements/:key          delete a definition
 *   PUT    /api/admin/games/:id/achievements/:key/icon     its icon (PNG, JPEG or WebP body;
 *                                                          createAchievementIconRouter)
 */

function keyOf(req: Request): string {
  const parsed = AchievementKey.safeParse(req.params.key);
  if (!parsed.success || parsed.data !== req.params.key) {
    throw notFound(`No achievement '${String(req.params.key).slice(0, 100)}'`);
  }
  return parsed.data;
}

export function createAchievementRouter(deps: {
  achievements: AchievementService;
  resolveGame: ResolveGame;
  adminAuth: RequestHandler;
  /** The games storage, where the icons are kept. */
  storage: ObjectStorage;
}): Router {
  const { achievements, resolveGame, adminAuth } = deps;
  const router = Router();

  /** Any game of the catalogue, published or not: the admin's routes. */
  const adminGame = (req: Request): string => resolveGame(req.params.id, 'any').id;

  router.get('/games/:gameId/achievements', async (req, res) => {
    const game = resolveGame(req.params.gameId, 'published');
    res
      .set('Cache-Control', 'private, no-store')
      .json(
        (await achievements.catalogue(
          game.id,
          req.auth?.user.id,
        )) satisfies GameAchievementsResponse,
      );
  });

  router.get('/games/:gameId/achievement-icons/:file', async (req, res) => {
    // icons of unpublished games too: the admin's page shows them before the game is out
    const gameId = resolveGame(req.params.gameId, 'any').id;
    const file = String(req.params.file ?? '');
    if (!ACHIEVEMENT_ICON_FILE.test(file)) {
      throw notFound('No such icon');
    }
    const result = await sendObject(req, res, deps.storage, achievementIconPrefix(gameId) + file, {
      cacheControl: 'public, max-age=300',
      headers: {},
      negotiate: false,
    });
    if (result !== 'sent') {
      throw notFound('No such icon');
    }
  });

  router.get('/admin/games/:id/achievements', adminAuth, async (req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json((await achievements.adminView(adminGame(req))) satisfies AdminAchievementsResponse);
  });

  router.put('/admin/games/:id/achievements/:key', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    const key = keyOf(req);
    const input = parseInput(PutAchievementRequest, req.body);
    const { created, achievement } = await achievements.put(gameId, key, input, actorOf(res));
    res.status(created ? 201 : 200).json({ achievement } satisfies AchievementDefResponse);
  });

  router.delete('/admin/games/:id/achievements/:key', adminAuth, async (req, res) => {
    await achievements.remove(adminGame(req), keyOf(req), actorOf(res));
    res.status(204).end();
  });

  return router;
}

/** The icon upload: a binary body, mounted ahead of the API's JSON-only guard and parser. */
export function createAchievementIconRouter(deps: {
  achievements: AchievementService;
  resolveGame: ResolveGame;
  adminAuth: RequestHandler;
  resolveSession: RequestHandler;
  allowedOrigins: readonly string[];
}): Router {
  const { achievements, resolveGame, adminAuth } = deps;
  const router = Router();
  router.put(
    '/admin/games/:id/achievements/:key/icon',
    binaryBodyGuard(
      IMAGE_TYPES,
      deps.allowedOrigins,
      'a PNG, JPEG or WebP image (Content-Type: image/png, image/jpeg or image/webp)',
    ),
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
    deps.resolveSession,
    adminAuth,
    // 404 before the body is read
    (req, _res, next) => {
      resolveGame(req.params.id, 'any');
      next();
    },
    express.raw({ type: [...IMAGE_TYPES], limit: ACHIEVEMENT_ICON_MAX_BYTES }),
    async (req, res) => {
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw badRequest('The icon is empty.');
      }
      const achievement = await achievements.setIcon(
        String(req.params.id),
        keyOf(req),
        body,
        mediaTypeOf(req),
        actorOf(res),
      );
      res.json({ achievement } satisfies AchievementDefResponse);
    },
  );
  return router;
}
