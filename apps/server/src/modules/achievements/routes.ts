import path from 'node:path';

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
import { parseInput } from '../../lib/validate.js';
import type { SdkGame } from '../games/index.js';
import { binaryBodyGuard, mediaTypeOf } from '../../lib/binary-body-guard.js';
import { actorOf } from '../../access/admin-guard.js';
import { IMAGE_TYPES } from '../game-host/index.js';
import { ACHIEVEMENT_ICON_FILE, type AchievementService, achievementIconDir } from './service.js';

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
  findGame: (gameId: string) => SdkGame | undefined;
  hasGame: (gameId: string) => boolean;
  adminAuth: RequestHandler;
  gamesDir: string;
}): Router {
  const { achievements, findGame, hasGame, adminAuth } = deps;
  const router = Router();

  const adminGame = (req: Request): string => {
    const gameId = String(req.params.id ?? '');
    if (!hasGame(gameId)) {
      throw notFound(`No game with the id '${gameId.slice(0, 64)}'`);
    }
    return gameId;
  };

  router.get('/games/:gameId/achievements', async (req, res) => {
    const gameId = String(req.params.gameId ?? '');
    const game = findGame(gameId);
    if (!game) {
      throw notFound(`No game with the id '${gameId.slice(0, 64)}'`);
    }
    res
      .set('Cache-Control', 'private, no-store')
      .json(
        (await achievements.catalogue(
          game.id,
          req.auth?.user.id,
        )) satisfies GameAchievementsResponse,
      );
  });

  router.get('/games/:gameId/achievement-icons/:file', (req, res, next) => {
    const gameId = String(req.params.gameId ?? '');
    const file = String(req.params.file ?? '');
    if (!hasGame(gameId) || !ACHIEVEMENT_ICON_FILE.test(file)) {
      throw notFound('No such icon');
    }
    res.sendFile(
      file,
      {
        root: path.resolve(achievementIconDir(deps.gamesDir, gameId)),
        maxAge: 300_000,
        dotfiles: 'deny',
      },
      (error?: Error) => {
        if (error) {
          next(notFound('No such icon'));
        }
      },
    );
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
  hasGame: (gameId: string) => boolean;
  adminAuth: RequestHandler;
  resolveSession: RequestHandler;
  allowedOrigins: readonly string[];
}): Router {
  const { achievements, hasGame, adminAuth } = deps;
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
    (req, _res, next) => {
      if (!hasGame(String(req.params.id ?? ''))) {
        throw notFound(`No game with the id '${String(req.params.id).slice(0, 64)}'`);
      }
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
