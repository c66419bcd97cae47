import { existsSync } from 'node:fs';
import path from 'node:path';

import express, { type Express } from 'express';

import type { Deps } from './container.js';
import { errorHandler, notFound } from './lib/errors.js';
import { DEFAULT_GAMES_DIR, DEFAULT_WEB_DIST } from './lib/paths.js';
import { securityHeaders, sameOriginGuard } from './lib/security.js';
import { parseTrustProxy } from './lib/proxy-trust.js';
import { createAnalyticsRouter } from './modules/analytics/routes.js';
import { createAuthRouter } from './modules/auth/routes.js';
import { createSessionCookies, sessionMiddleware } from './modules/auth/session-middleware.js';
import { createGameStatusRouter } from './modules/game-status/routes.js';
import { createGamesRouter } from './modules/games/routes.js';
import { createGamesStaticRouter } from './modules/games/static-routes.js';
import { createPresenceRouter } from './modules/presence/routes.js';
import {
  createStripeWebhookRouter,
  createSubscriptionRouter,
} from './modules/subscription/routes.js';
import { createAdminUsersRouter } from './modules/users/admin-routes.js';
import { createProfileRouter } from './modules/users/profile-routes.js';
import { createRunCodeRouter } from './modules/run-code/routes.js';

/** Builds the Express app (API + built web app) without listening. */
export function createApp(deps: Deps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) {
    app.set('trust proxy', parseTrustProxy(config.trustProxy));
  }
  app.use(securityHeaders({ isProduction: config.env === 'production' }));

  // Stripe posts from its servers and signs the raw bytes: ahead of the guard and the JSON parser
  app.use(
    '/api/stripe',
    createStripeWebhookRouter({
      subscriptions: deps.subscriptions,
      rateLimiter: deps.rateLimiter,
      limits: deps.subscriptionRateLimits,
    }),
  );

  const api = express.Router();
  // refuse cross-site writes before reading their bodies
  api.use(sameOriginGuard(config.publicOrigin ? [config.publicOrigin] : []));
  api.use(express.json({ limit: '100kb' }));
  const sessionCookies = createSessionCookies({ publicOrigin: config.publicOrigin });
  api.use(sessionMiddleware(deps.sessions, sessionCookies));
  // heartbeats never reach Express: server.ts serves them first (heartbeat-fast-path.ts)
  api.use(createPresenceRouter(deps.presence));
  api.use(createAnalyticsRouter({ analytics: deps.analytics, rateLimiter: deps.rateLimiter }));
  api.use(createGameStatusRouter(deps.gameStatus));
  api.use(createGamesRouter({ games: deps.games, rateLimiter: deps.rateLimiter }));
  api.use(
    createSubscriptionRouter({
      subscriptions: deps.subscriptions,
      rateLimiter: deps.rateLimiter,
      limits: deps.subscriptionRateLimits,
      publicOrigin: config.publicOrigin,
    }),
  );
  api.use(
    '/auth',
    createAuthRouter({
      auth: deps.auth,
      sessions: deps.sessions,
      cookies: sessionCookies,
      rateLimiter: deps.rateLimiter,
      limits: deps.authRateLimits,
    }),
  );
  api.use(createAdminUsersRouter({ adminUsers: deps.adminUsers }));
  api.use('/user', createProfileRouter({ profile: deps.profile, rateLimiter: deps.rateLimiter }));
  api.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  api.use((req) => {
    throw notFound(`No API route for ${req.method} ${req.path}`);
  });
  app.use('/api', api);

  // the C++ runner sits outside /api (the spec's path) behind the same same-origin JSON guard
  app.use(
    '/run-code',
    createRunCodeRouter({
      runner: deps.codeRunner,
      rateLimiter: deps.rateLimiter,
      limit: deps.runCodeRateLimit,
      allowedOrigins: config.publicOrigin ? [config.publicOrigin] : [],
    }),
  );

  // the game folders and the game SDK; /games itself falls through to the web app
  app.use(
    '/games',
    createGamesStaticRouter({
      gamesDir: DEFAULT_GAMES_DIR,
      resolveSession: sessionMiddleware(deps.sessions, sessionCookies),
    }),
  );

  const webDist = config.webDistDir ? path.resolve(config.webDistDir) : DEFAULT_WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) {
    // source maps publish the source: only where SERVE_SOURCE_MAPS allows (not in production)
    if (!config.serveSourceMaps) {
      app.use((req, _res, next) => {
        next(req.path.endsWith('.map') ? notFound() : undefined);
      });
    }
    app.use(
      express.static(webDist, {
        index: false,
        setHeaders: (res, filePath) => {
          // Vite's content-hashed bundles never change; everything else may
          const isHashed = /-[A-Za-z0-9_-]{8}\.(js|css|woff2?|svg|png|jpg|wasm)$/.test(filePath);
          res.setHeader(
            'Cache-Control',
            isHashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
          );
        },
      }),
    );
    // a missing built asset is a 404, not the web app's page
    app.use('/assets', (req) => {
      throw notFound(`No such file: ${req.originalUrl.split('?')[0] ?? ''}`);
    });
    // every other GET is a client-side route: the SPA decides (and shows its own 404)
    app.get('{/*splat}', (_req, res) => {
      res.set('Cache-Control', 'no-cache').sendFile(path.join(webDist, 'index.html'));
    });
  }
  app.use(errorHandler);
  return app;
}
