import express, { type Express } from 'express';

import type { Deps } from './container.js';
import { errorHandler, notFound } from './lib/errors.js';
import { DEFAULT_GAMES_DIR } from './lib/paths.js';
import { apiCompression } from './lib/api-compression.js';
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
import { createWebSite } from './modules/web/static-site.js';

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
  api.use(apiCompression());
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

  // source maps publish the source: only where SERVE_SOURCE_MAPS allows (not in production)
  if (!config.serveSourceMaps) {
    app.use((req, _res, next) => {
      next(req.path.endsWith('.map') ? notFound() : undefined);
    });
  }
  // the built web app: precompressed files, robots.txt, sitemap.xml and every page's HTML
  app.use(createWebSite(config));
  app.use(errorHandler);
  return app;
}
