import express, { type Express } from 'express';

import { gameAdminAuth } from './access/admin-guard.js';
import { twoFactorSetupGate } from './access/policies.js';
import type { Deps } from './container.js';
import { errorBody, errorHandler, notFound, unauthorized, unmatchedRoute } from './lib/errors.js';
import { DEFAULT_GAMES_DIR } from './lib/paths.js';
import { apiCompression } from './lib/api-compression.js';
import { hasMetricsToken, httpMetrics, sendMetrics } from './lib/metrics.js';
import { requestLogging } from './lib/request-log.js';
import { securityHeaders, sameOriginGuard } from './lib/security.js';
import { parseTrustProxy } from './lib/proxy-trust.js';
import { createAnalyticsRouter } from './modules/analytics/dashboard/routes.js';
import { createSiteAnalyticsRouter } from './modules/analytics/site/site-routes.js';
import { createPasswordResetRouter } from './modules/auth/password-reset-routes.js';
import { createAuthRouter } from './modules/auth/routes.js';
import { createSessionCookies, sessionMiddleware } from './modules/auth/session-middleware.js';
import { createTwoFactorRouter } from './modules/auth/two-factor-routes.js';
import { gamesOriginFor } from './modules/game-host/origin.js';
import { createGameStatusRouter } from './modules/game-status/routes.js';
import { findPlayableGame } from './modules/game-host/catalogue.js';
import { createGameHostRouter, createGameUploadRouter } from './modules/game-host/routes.js';
import { createGamesRouter } from './modules/games/routes.js';
import { createLeaderboardRouter } from './modules/leaderboards/routes.js';
import {
  createAchievementIconRouter,
  createAchievementRouter,
} from './modules/achievements/routes.js';
import { createGamesStaticRouter, serveGameSdk } from './modules/games/static-routes.js';
import { createPlayTicketRouter } from './modules/multiplayer/play-ticket-routes.js';
import { createMailRouter } from './modules/mail/routes.js';
import {
  createMediaAdminRouter,
  createMediaStaticRouter,
  createMediaUploadRouter,
} from './modules/media/routes.js';
import { createPresenceRouter } from './modules/presence/routes.js';
import {
  createStripeWebhookRouter,
  createSubscriptionRouter,
} from './modules/subscription/routes.js';
import { createAdminUsersRouter } from './modules/users/admin-routes.js';
import { createRoomsRouter } from './modules/rooms/routes.js';
import { createProfileRouter } from './modules/users/profile-routes.js';
import {
  codeBodyParser,
  createRunCodeInfoRouter,
  createRunCodeRouter,
} from './modules/run-code/routes.js';
import { createSnippetsRouter } from './modules/run-code/snippet-routes.js';
import { createWebSite } from './modules/web/static-site.js';
import { createContentRouter } from './modules/content/routes.js';
import { pageDataOf } from './modules/content/page-data.js';
import { createPageCards } from './modules/web/page-cards.js';
import { createDevlogRouter, createFeedRouter } from './modules/devlog/routes.js';

/** What the API's route areas share: the session cookies and the session steps made once. */
interface ApiWiring {
  deps: Deps;
  config: Deps['config'];
  sessionCookies: ReturnType<typeof createSessionCookies>;
  /** The session, then the ADMIN_REQUIRE_2FA gate: for routers mounted ahead of the API's own. */
  resolveSessionAndGate: express.RequestHandler;
  /** The SDK's records and game clicks follow the database catalogue (published games). */
  findGame: (gameId: string) => ReturnType<typeof findPlayableGame>;
}

const allowedOriginsOf = (config: Deps['config']) =>
  config.publicOrigin ? [config.publicOrigin] : [];

/** Builds the Express app (API + built web app) without listening. */
export function createApp(deps: Deps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) {
    app.set('trust proxy', parseTrustProxy(config.trustProxy));
  }
  // every request Express serves: an id (X-Request-Id), a log line, its count and time
  app.use(requestLogging());
  app.use(httpMetrics);
  app.use(
    securityHeaders({
      isProduction: config.env === 'production',
      gamesOrigin: (req) => gamesOriginFor(req, config),
      cdn: { games: config.gamesHost.publicUrl, media: config.media.publicUrl },
    }),
  );
  mountMetrics(app, config);

  // Stripe posts from its servers and signs the raw bytes: ahead of the guard and the JSON parser
  app.use(
    '/api/stripe',
    createStripeWebhookRouter({
      subscriptions: deps.subscriptions,
      rateLimiter: deps.rateLimiter,
      limits: deps.subscriptionRateLimits,
    }),
  );

  const sessionCookies = createSessionCookies({ publicOrigin: config.publicOrigin });
  const findGame = (gameId: string) => findPlayableGame(deps.gameHost.catalogue, gameId);
  app.use('/api', createApiRouter({ deps, config, sessionCookies, findGame }));
  mountFilesOutsideApi(app, deps, sessionCookies);
  mountWebSite(app, deps, findGame);
  app.use(unmatchedRoute);
  app.use(errorHandler);
  return app;
}

/** Prometheus on the main port only for a bearer METRICS_TOKEN (else METRICS_PORT, loopback). */
function mountMetrics(app: Express, config: Deps['config']): void {
  app.get('/metrics', async (req, res, next) => {
    const token = config.metrics.token;
    if (!token) {
      next(notFound());
      return;
    }
    if (!hasMetricsToken(req, token)) {
      res.set('WWW-Authenticate', 'Bearer').status(401).json(errorBody(unauthorized()));
      return;
    }
    await sendMetrics(res);
  });
}

/**
 * The JSON API under /api, in its order: binary uploads, the same-origin guard, the body
 * parsers, the session and the 2FA gate, then each area's routes (a router's own middleware
 * reaches the routers after it, so the order is part of the behaviour), the probes, a 404.
 */
function createApiRouter(wiring: Omit<ApiWiring, 'resolveSessionAndGate'>): express.Router {
  const { deps, config, sessionCookies } = wiring;
  const api = express.Router();
  api.use(apiCompression());
  // ADMIN_REQUIRE_2FA: an admin without 2FA may only set it up (and sign in or out) until it is on
  const twoFactorGate = twoFactorSetupGate();
  const resolveSession = sessionMiddleware(deps.sessions, sessionCookies);
  const resolveSessionAndGate: express.RequestHandler = (req, res, next) =>
    resolveSession(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      try {
        twoFactorGate(req, res, next);
      } catch (gateError) {
        next(gateError);
      }
    });
  const full: ApiWiring = { ...wiring, resolveSessionAndGate };
  mountUploadRoutes(api, full);
  // refuse cross-site writes before reading their bodies, and cross-origin reads (a game on the
  // games origin must not read the API as the visitor)
  api.use(sameOriginGuard(allowedOriginsOf(config), { guardReads: true }));
  // a shared snippet carries a source and its input (64 KB each, escaped): its own body limit
  api.use('/snippets', codeBodyParser());
  api.use(express.json({ limit: '100kb' }));
  api.use(resolveSession);
  api.use(twoFactorGate);
  mountVisitorRoutes(api, full);
  mountGameRoutes(api, full);
  mountAccountRoutes(api, full);
  mountOwnerRoutes(api, full);
  mountProbes(api, deps);
  api.use((req) => {
    throw notFound(`No API route for ${req.method} ${req.path}`);
  });
  return api;
}

/**
 * Binary bodies with their own same-origin check, streamed to disk: ahead of the JSON-only guard
 * and parser.
 */
function mountUploadRoutes(api: express.Router, wiring: ApiWiring): void {
  const { deps, config, resolveSessionAndGate } = wiring;
  // game builds and thumbnails: the zip streamed to disk
  api.use(
    createGameUploadRouter({ host: deps.gameHost, config, resolveSession: resolveSessionAndGate }),
  );
  // media uploads: the same, one file streamed to MEDIA_DIR
  api.use(
    createMediaUploadRouter({
      media: deps.media,
      allowedOrigins: allowedOriginsOf(config),
      resolveSession: resolveSessionAndGate,
    }),
  );
  // achievement icons: an image each, as a game's thumbnail
  api.use(
    createAchievementIconRouter({
      achievements: deps.achievements,
      resolveGame: deps.gameHost.resolveGame,
      adminAuth: gameAdminAuth(deps.gameHost),
      resolveSession: resolveSessionAndGate,
      allowedOrigins: allowedOriginsOf(config),
    }),
  );
}

/** Presence, the dashboard's and the site's analytics, the game servers' status. */
function mountVisitorRoutes(api: express.Router, { deps, findGame }: ApiWiring): void {
  // heartbeats never reach Express: server.ts serves them first (heartbeat-fast-path.ts)
  api.use(createPresenceRouter(deps.presence));
  api.use(
    createAnalyticsRouter({ analytics: deps.analytics, rateLimiter: deps.rateLimiter, findGame }),
  );
  api.use(
    createSiteAnalyticsRouter({
      collector: deps.collector,
      queries: deps.siteAnalytics,
      presence: deps.presence,
      rateLimiter: deps.rateLimiter,
      findGame,
    }),
  );
  api.use(createGameStatusRouter(deps.gameStatus));
}

/**
 * The game SDK API, the game host, the owner's content (mounted here, between the game host and
 * the boards, as it always was), boards, achievements and play tickets.
 */
function mountGameRoutes(api: express.Router, { deps, config }: ApiWiring): void {
  api.use(
    createGamesRouter({
      games: deps.games,
      rateLimiter: deps.rateLimiter,
      resolveGame: deps.gameHost.resolveGame,
      checkUnlock: (gameId, name) => deps.achievements.checkUnlock(gameId, name),
    }),
  );
  api.use(createGameHostRouter({ host: deps.gameHost, config }));
  api.use(createContentRouter({ content: deps.content, tokens: deps.gameHost.tokens }));
  api.use(
    createLeaderboardRouter({
      leaderboards: deps.leaderboards,
      rateLimiter: deps.rateLimiter,
      resolveGame: deps.gameHost.resolveGame,
      adminAuth: gameAdminAuth(deps.gameHost),
    }),
  );
  api.use(
    createAchievementRouter({
      achievements: deps.achievements,
      resolveGame: deps.gameHost.resolveGame,
      adminAuth: gameAdminAuth(deps.gameHost),
      storage: deps.gameHost.storage,
    }),
  );
  api.use(
    createRoomsRouter({
      rooms: deps.rooms,
      resolveGame: deps.gameHost.resolveGame,
      rateLimiter: deps.rateLimiter,
      adminAuth: gameAdminAuth(deps.gameHost),
    }),
  );
  api.use(
    createPlayTicketRouter({
      playTickets: deps.playTickets,
      rateLimiter: deps.rateLimiter,
      publicOrigin: config.publicOrigin,
      resolveGame: deps.gameHost.resolveGame,
    }),
  );
}

/** Subscriptions, sign-in (/auth), two-factor (/me/2fa) and the admin's user management. */
function mountAccountRoutes(api: express.Router, wiring: ApiWiring): void {
  const { deps, config, sessionCookies } = wiring;
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
      twoFactor: deps.twoFactor,
      isAdminTwoFactorRequired: config.adminRequireTwoFactor,
    }),
  );
  api.use(
    '/me/2fa',
    createTwoFactorRouter({
      twoFactor: deps.twoFactor,
      rateLimiter: deps.rateLimiter,
      codeAttemptsPerUser: deps.authRateLimits.twoFactorPerUser,
      isAdminTwoFactorRequired: config.adminRequireTwoFactor,
    }),
  );
  api.use(createAdminUsersRouter({ adminUsers: deps.adminUsers }));
}

/**
 * The owner's media and devlog, password reset and mail, the C++ runner's info and snippets, the
 * signed-in user's profile (/user).
 */
function mountOwnerRoutes(api: express.Router, { deps, sessionCookies }: ApiWiring): void {
  api.use(createMediaAdminRouter({ media: deps.media }));
  api.use(createDevlogRouter({ devlog: deps.devlog }));
  api.use(
    createPasswordResetRouter({
      passwordReset: deps.passwordReset,
      confirmation: deps.emailConfirmation,
      cookies: sessionCookies,
      rateLimiter: deps.rateLimiter,
      limits: deps.passwordResetLimits,
    }),
  );
  api.use(
    createMailRouter({
      mail: deps.mail,
      preferences: deps.users,
      secret: deps.config.sessionSecret,
    }),
  );
  api.use(createRunCodeInfoRouter({ runner: deps.codeRunner }));
  api.use(
    createSnippetsRouter({
      snippets: deps.snippets,
      rateLimiter: deps.rateLimiter,
      limit: deps.snippetShareLimit,
    }),
  );
  api.use(
    '/user',
    createProfileRouter({
      profile: deps.profile,
      cookies: sessionCookies,
      rateLimiter: deps.rateLimiter,
    }),
  );
}

/**
 * Probes: alive, and ready for traffic (the proxy and compose healthchecks ask this one); behind
 * the same guards as every API read (a probe sends no Origin).
 */
function mountProbes(api: express.Router, deps: Deps): void {
  api.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  api.get('/ready', async (_req, res) => {
    const answer = await deps.readiness.check();
    res.set('Cache-Control', 'no-store');
    if (answer.ready) {
      res.json({ ready: true });
      return;
    }
    res.status(503).json({ ready: false, reason: answer.reason });
  });
}

/** The C++ runner, the game folders and SDK, uploaded media: outside /api. */
function mountFilesOutsideApi(
  app: Express,
  deps: Deps,
  sessionCookies: ApiWiring['sessionCookies'],
): void {
  const { config } = deps;
  // the C++ runner sits outside /api (the spec's path) behind the same same-origin JSON guard
  app.use(
    '/run-code',
    createRunCodeRouter({
      runner: deps.codeRunner,
      rateLimiter: deps.rateLimiter,
      limit: deps.runCodeRateLimit,
      allowedOrigins: allowedOriginsOf(config),
      resolveSession: sessionMiddleware(deps.sessions, sessionCookies),
    }),
  );

  // games include the SDK as /sdk.js (the games origin's address): the same file here, for the
  // game folders this origin serves itself
  app.get('/sdk.js', serveGameSdk(DEFAULT_GAMES_DIR));
  // the game folders and the game SDK; /games itself falls through to the web app
  app.use(
    '/games',
    createGamesStaticRouter({
      gamesDir: DEFAULT_GAMES_DIR,
      resolveSession: sessionMiddleware(deps.sessions, sessionCookies),
    }),
  );

  // uploaded media, by content hash: ranges for seeking, cached for a year
  app.use('/media', createMediaStaticRouter(deps.media.storage));
}

/** Source maps (if allowed), the devlog's feed and the built web app's files and pages. */
function mountWebSite(app: Express, deps: Deps, findGame: ApiWiring['findGame']): void {
  const { config } = deps;
  // source maps publish the source: only where SERVE_SOURCE_MAPS allows (not in production)
  if (!config.serveSourceMaps) {
    app.use((req, _res, next) => {
      next(req.path.endsWith('.map') ? notFound() : undefined);
    });
  }
  // the devlog's Atom feed (absolute links under PUBLIC_ORIGIN, else the request's origin)
  app.use(
    createFeedRouter({
      devlog: deps.devlog,
      originOf: (req) =>
        config.publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`,
    }),
  );
  // the built web app: precompressed files, robots.txt, sitemap.xml and every page's HTML
  app.use(
    createWebSite({
      ...config,
      // a page opened at the other loopback name goes where mail links lead
      canonicalOrigin: deps.siteOrigin,
      isPublishedGame: (gameId) => findGame(gameId) !== undefined,
      content: {
        siteTexts: () => deps.content.store.siteTexts(),
        pageData: (path) => pageDataOf(deps.content.store, path),
      },
      ...createPageCards({
        devlog: deps.devlog,
        catalogue: deps.gameHost.catalogue,
        gallery: () => deps.content.store.gallery(),
        gamesOrigin: (req) => gamesOriginFor(req, config),
      }),
      // a page's document: a bot hit unless its script sends the page view (site analytics)
      onPage: (req) =>
        deps.collector.document({ ip: req.ip, userAgent: req.get('user-agent') }, req.path),
    }),
  );
}
