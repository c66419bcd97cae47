import path from 'node:path';

import express, { type RequestHandler, Router } from 'express';

import { GAME_CATALOGUE, decideGameAccess, type GameCatalogueEntry } from '@portfolio/types';

import { forbidden, notFound } from '../../lib/errors.js';

/**
 * Serves the game folders at /games/<GameId>/… and the SDK at /games/sdk.js. Every path below
 * /games/ belongs to the games, so a missing file is a 404 (never the web app's page); the bare
 * /games route stays the web app's. The files of a subscriber game (Pong) go only to subscriber
 * and admin sessions (403 otherwise). `req.auth` must already be resolved (session middleware).
 */
export function createGamesStaticRouter(options: {
  gamesDir: string;
  /** Resolves the session cookie into req.auth (the session middleware). */
  resolveSession: RequestHandler;
}): Router {
  const gamesDir = path.resolve(options.gamesDir);
  const router = Router();
  // /games itself is the web app's page
  router.use((req, _res, next) => {
    next(req.path === '/' ? 'router' : undefined);
  });
  router.use(options.resolveSession);

  router.get('/sdk.js', serveGameSdk(gamesDir));

  const handlers = new Map<string, RequestHandler>(
    GAME_CATALOGUE.map((game) => [game.id, serveGame(gamesDir, game)]),
  );
  router.use('/:gameId', (req, res, next) => {
    const handler = handlers.get(req.params.gameId ?? '');
    if (!handler) {
      next(notFound(`No game at ${req.originalUrl.split('?')[0] ?? ''}`));
      return;
    }
    handler(req, res, next);
  });
  // anything else below /games/ (a missing file, a folder that is no game)
  router.use((req, _res, next) => {
    next(notFound(`No such file: ${req.originalUrl.split('?')[0] ?? ''}`));
  });
  return router;
}

/**
 * The game SDK (sdk.js). Games include it as `/sdk.js`, where the games origin serves it; the site
 * serves it there too (and at /games/sdk.js) for the game folders it still serves itself.
 */
export function serveGameSdk(gamesDir: string): RequestHandler {
  return (req, res, next) => {
    res.sendFile(
      'sdk.js',
      { root: path.resolve(gamesDir), headers: { 'Cache-Control': 'no-cache' } },
      (error) => {
        if (error) {
          next(notFound(`No such file: ${req.path}`));
        }
      },
    );
  };
}

function serveGame(gamesDir: string, game: GameCatalogueEntry): RequestHandler {
  const isRestricted = game.access === 'subscriber';
  const files = express.static(path.join(gamesDir, game.id), {
    index: 'index.html',
    dotfiles: 'deny',
    setHeaders: (res) => {
      // a restricted game's files must not sit in shared caches
      res.setHeader('Cache-Control', isRestricted ? 'private, no-cache' : 'public, max-age=300');
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next(notFound(`No such file: ${req.originalUrl.split('?')[0] ?? ''}`));
      return;
    }
    if (isRestricted && !decideGameAccess(game, req.auth?.user.role ?? null).allowed) {
      next(forbidden(`${game.title} is for subscribers`));
      return;
    }
    const pathname = req.originalUrl.split('?')[0] ?? '';
    if (req.path === '/' && !pathname.endsWith('/')) {
      // the game's relative asset URLs need the folder's trailing slash
      res.redirect(301, `${pathname}/${req.originalUrl.slice(pathname.length)}`);
      return;
    }
    files(req, res, next);
  };
}
