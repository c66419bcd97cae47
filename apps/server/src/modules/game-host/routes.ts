import express, { type Request, type RequestHandler, Router } from 'express';

import {
  type AdminGameResponse,
  type AdminGamesResponse,
  type AdminTokensResponse,
  CreateAdminTokenRequest,
  type CreateAdminTokenResponse,
  CreateGameRequest,
  GameId,
  type GameAuditResponse,
  type GameBuildResponse,
  type GamesResponse,
  UpdateGameRequest,
} from '@portfolio/types/game-host';
import { z } from 'zod';

import type { Config } from '../../config.js';
import { binaryBodyGuard, mediaTypeOf } from '../../lib/binary-body-guard.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { parseInput } from '../../lib/validate.js';
import { actorOf, gameAdminAuth } from '../../access/admin-guard.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import { THUMBNAIL_MAX_BYTES } from './admin-service.js';
import { toAdminGame, toGameBuild, toGameEntry, type PresentContext } from './catalogue.js';
import { IMAGE_TYPES } from './images.js';
import { gamesOriginFor } from './origin.js';
import type { GameHost } from './service.js';

/*
 * The game host's API:
 *
 *   GET    /api/games                                   the published cards (GamesResponse)
 *   GET    /api/admin/games                             every game with its builds
 *   POST   /api/admin/games                             add a game (unpublished, no build)
 *   PATCH  /api/admin/games/:id                         edit, publish, unpublish
 *   DELETE /api/admin/games/:id                         delete (not the built-in games)
 *   PUT    /api/admin/games/:id/build[?activate=false]  upload a build (zip body, streamed)
 *   POST   /api/admin/games/:id/builds/:version/activate   make a version live (rollback)
 *   PUT    /api/admin/games/:id/thumbnail               the card image (PNG, JPEG or WebP body)
 *   GET    /api/admin/games/audit[?gameId=]             the game audit log
 *   GET/POST /api/admin/tokens, DELETE /api/admin/tokens/:id   API tokens (admin session only)
 *
 * The games admin API takes an admin session or `Authorization: Bearer <admin token>`.
 */

const ActivateQuery = z.object({ activate: z.enum(['true', 'false']).optional() });
const AuditQuery = z.object({ gameId: GameId.optional() });
const VersionParam = z.coerce.number().int().positive().max(2_147_483_647);

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

function presentContext(req: Request, config: Config, host: GameHost): PresentContext {
  return {
    role: req.auth?.user.role ?? null,
    gamesOrigin: gamesOriginFor(req, config),
    grants: host.grants,
    publicGamesUrl: config.gamesHost.publicUrl,
  };
}

function versionOf(req: Request): number {
  const parsed = VersionParam.safeParse(req.params.version);
  if (!parsed.success) {
    throw notFound(`No version '${String(req.params.version).slice(0, 20)}'`);
  }
  return parsed.data;
}

/** The JSON routes: behind the API's same-origin guard and JSON parser. */
export function createGameHostRouter(deps: { host: GameHost; config: Config }): Router {
  const { host, config } = deps;
  const router = Router();
  const admin = gameAdminAuth(host);
  /** The game of the path, any of the catalogue (the admin's routes): 404 otherwise. */
  const gameIdOf = (req: Request): string => host.resolveGame(req.params.id, 'any').id;

  router.get('/games', (req, res) => {
    const context = presentContext(req, config, host);
    res.set('Cache-Control', 'private, no-store').json({
      games: host.catalogue
        .list()
        .filter((record) => record.game.published)
        .map((record) => toGameEntry(record, context)),
    } satisfies GamesResponse);
  });

  router.use(['/admin/games', '/admin/tokens'], noStore);

  router.get('/admin/games', admin, (req, res) => {
    const context = presentContext(req, config, host);
    res.json({
      games: host.catalogue.list().map((record) => toAdminGame(record, context)),
    } satisfies AdminGamesResponse);
  });

  router.post('/admin/games', admin, async (req, res) => {
    const input = parseInput(CreateGameRequest, req.body);
    const record = await host.admin.create(input, actorOf(res));
    res.status(201).json({
      game: toAdminGame(record, presentContext(req, config, host)),
    } satisfies AdminGameResponse);
  });

  router.get('/admin/games/audit', admin, async (req, res) => {
    const { gameId } = parseInput(AuditQuery, req.query);
    res.json({ entries: await host.audit(gameId) } satisfies GameAuditResponse);
  });

  router.patch('/admin/games/:id', admin, async (req, res) => {
    const gameId = gameIdOf(req);
    const input = parseInput(UpdateGameRequest, req.body);
    const record = await host.admin.update(gameId, input, actorOf(res));
    res.json({
      game: toAdminGame(record, presentContext(req, config, host)),
    } satisfies AdminGameResponse);
  });

  router.delete('/admin/games/:id', admin, async (req, res) => {
    await host.admin.delete(gameIdOf(req), actorOf(res));
    res.status(204).end();
  });

  router.post('/admin/games/:id/builds/:version/activate', admin, async (req, res) => {
    const gameId = gameIdOf(req);
    const build = await host.publisher.activate(gameId, versionOf(req), actorOf(res));
    // read again: the command changed it
    const { record } = host.resolveGame(gameId, 'any');
    res.json({
      game: toAdminGame(record, presentContext(req, config, host)),
      build: toGameBuild(build, record.game.liveVersion),
    } satisfies GameBuildResponse);
  });

  router.delete('/admin/games/:id/builds/:version', admin, async (req, res) => {
    await host.publisher.deleteBuild(gameIdOf(req), versionOf(req), actorOf(res));
    res.status(204).end();
  });

  // API tokens are managed from an admin session only: a token cannot mint or list tokens
  router.get('/admin/tokens', requireAdmin, async (_req, res) => {
    res.json({ tokens: await host.tokens.list() } satisfies AdminTokensResponse);
  });

  router.post('/admin/tokens', requireAdmin, async (req, res) => {
    const { name } = parseInput(CreateAdminTokenRequest, req.body);
    const { user } = sessionOf(req);
    const created = await host.tokens.create(name, { id: user.id, username: user.username });
    res.status(201).json(created satisfies CreateAdminTokenResponse);
  });

  router.delete('/admin/tokens/:tokenId', requireAdmin, async (req, res) => {
    const { user } = sessionOf(req);
    const deleted = await host.tokens.delete(String(req.params.tokenId), {
      id: user.id,
      username: user.username,
    });
    if (!deleted) {
      throw notFound('No such token');
    }
    res.status(204).end();
  });

  return router;
}

/** Whether a request is a build upload (server.ts lets those take minutes while data flows). */
export function isBuildUpload(req: {
  method?: string | undefined;
  url?: string | undefined;
}): boolean {
  return req.method === 'PUT' && /^\/api\/admin\/games\/[^/?]+\/build(\?|$)/.test(req.url ?? '');
}

const ZIP_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/octet-stream',
]);

/**
 * The binary uploads (a build's zip, a thumbnail), mounted ahead of the API's JSON-only guard
 * and parser: the zip streams to disk from the request itself.
 */
export function createGameUploadRouter(deps: {
  host: GameHost;
  config: Config;
  resolveSession: RequestHandler;
}): Router {
  const { host, config, resolveSession } = deps;
  const router = Router();
  const admin = gameAdminAuth(host);
  const allowedOrigins = config.publicOrigin ? [config.publicOrigin] : [];
  const gameIdOf = (req: Request): string => host.resolveGame(req.params.id, 'any').id;

  /** 404 before the body is read. */
  const knownGame: RequestHandler = (req, _res, next) => {
    gameIdOf(req);
    next();
  };

  router.put(
    '/admin/games/:id/build',
    binaryBodyGuard(
      ZIP_TYPES,
      allowedOrigins,
      'the build as a zip (Content-Type: application/zip)',
    ),
    noStore,
    resolveSession,
    admin,
    knownGame,
    async (req, res) => {
      const gameId = gameIdOf(req);
      const { activate } = parseInput(ActivateQuery, req.query);
      const build = await host.publisher.publishUpload(gameId, req, {
        actor: actorOf(res),
        activate: activate !== 'false',
      });
      // read again: the upload changed it
      const { record } = host.resolveGame(gameId, 'any');
      res.status(201).json({
        game: toAdminGame(record, presentContext(req, config, host)),
        build: toGameBuild(build, record.game.liveVersion),
      } satisfies GameBuildResponse);
    },
  );

  router.put(
    '/admin/games/:id/thumbnail',
    binaryBodyGuard(
      IMAGE_TYPES,
      allowedOrigins,
      'a PNG, JPEG or WebP image (Content-Type: image/png, image/jpeg or image/webp)',
    ),
    noStore,
    resolveSession,
    admin,
    knownGame,
    express.raw({ type: [...IMAGE_TYPES], limit: THUMBNAIL_MAX_BYTES }),
    async (req, res) => {
      const gameId = gameIdOf(req);
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw badRequest('The thumbnail is empty.');
      }
      const record = await host.admin.setThumbnail(gameId, body, mediaTypeOf(req), actorOf(res));
      res.json({
        game: toAdminGame(record, presentContext(req, config, host)),
      } satisfies AdminGameResponse);
    },
  );

  return router;
}
