import type { Redis } from 'ioredis';

import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DomainEventBus, createDomainEventBus } from './lib/events.js';
import {
  type InvalidationBus,
  createLocalInvalidationBus,
  createRedisInvalidationBus,
} from './lib/invalidation-bus.js';
import {
  type RateLimitRule,
  type RateLimiter,
  createMemoryRateLimiter,
  createRedisRateLimiter,
} from './lib/rate-limit.js';
import { connectRedis, waitForRedis } from './lib/redis.js';
import { DEFAULT_GAMES_DIR } from './lib/paths.js';
import type { GameHostCatalogue } from './modules/game-host/layout.js';
import {
  CATALOGUE_REFRESH_INTERVAL_MS,
  createGameHost,
  type GameHost,
} from './modules/game-host/service.js';
import { createAnalyticsRepo } from './modules/analytics/repo.js';
import {
  type Collector,
  createCollector,
  EVENT_FLUSH_INTERVAL_MS,
} from './modules/analytics/collector.js';
import { createEventsRepo } from './modules/analytics/events-repo.js';
import {
  type AnalyticsQueryService,
  createAnalyticsQueryService,
  ROLLUP_INTERVAL_MS,
} from './modules/analytics/query-service.js';
import { createGamesService, type GamesService } from './modules/games/service.js';
import {
  type AchievementService,
  createAchievementService,
} from './modules/achievements/service.js';
import {
  createLeaderboardService,
  type LeaderboardService,
} from './modules/leaderboards/service.js';
import { type AnalyticsService, createAnalyticsService } from './modules/analytics/service.js';
import { DEFAULT_AUTH_RATE_LIMITS, type AuthRateLimits } from './modules/auth/routes.js';
import { type AuthService, createAuthService } from './modules/auth/service.js';
import { createEmailTokens, type EmailTokens } from './modules/auth/email-tokens.js';
import {
  createPasswordResetService,
  type PasswordResetService,
} from './modules/auth/password-reset.js';
import {
  DEFAULT_PASSWORD_RESET_LIMITS,
  type PasswordResetLimits,
} from './modules/auth/password-reset-routes.js';
import {
  createMailQueue,
  createSmtpTransport,
  defaultMailFrom,
  type MailQueue,
  type MailRetry,
} from './modules/mail/queue.js';
import { type SessionService, createSessionService } from './modules/auth/session-service.js';
import {
  type TwoFactorService,
  createTwoFactorService,
} from './modules/auth/two-factor-service.js';
import { type GameServerMonitor, createGameServerMonitor } from './modules/game-status/monitor.js';
import { type MultiplayerHub, createMultiplayerHub } from './modules/multiplayer/hub.js';
import { type PlayTickets, createPlayTickets } from './modules/multiplayer/play-tickets.js';
import { withFallback } from './modules/presence/fallback-store.js';
import { createMemoryPresenceStore } from './modules/presence/memory-store.js';
import { createRedisPresenceStore } from './modules/presence/redis-store.js';
import { type PresenceService, createPresenceService } from './modules/presence/service.js';
import { createGrantEndingMail, createSubscriberMail } from './modules/mail/subscriber-mail.js';
import { createSubscriptionRepo } from './modules/subscription/repo.js';
import {
  DEFAULT_SUBSCRIPTION_RATE_LIMITS,
  type SubscriptionRateLimits,
} from './modules/subscription/routes.js';
import {
  type SubscriptionService,
  createSubscriptionService,
} from './modules/subscription/service.js';
import { createStripeClient } from './modules/subscription/stripe-client.js';
import {
  type AdminUsersService,
  createAdminUsersService,
  GRANT_CHECK_INTERVAL_MS,
} from './modules/users/admin-service.js';
import {
  createEmailConfirmation,
  type EmailConfirmation,
} from './modules/users/email-confirmation.js';
import { createGameRecordsReader } from './modules/users/game-records.js';
import { type ProfileService, createProfileService } from './modules/users/profile-service.js';
import { type UsersRepo, createUsersRepo } from './modules/users/repo.js';
import { type AdminNotifier, createAdminNotifier } from './realtime/admin-notifier.js';
import { type CodeRunner, createCodeRunner } from './modules/run-code/runner.js';
import { SNIPPET_SHARE_LIMIT } from './modules/run-code/snippet-routes.js';
import { createSnippetsService, type SnippetsService } from './modules/run-code/snippets.js';
import type { GameGrants } from './modules/game-host/grants.js';

/** Time on site and visitor rollups are written in batches this often (and at shutdown). */
export const ANALYTICS_FLUSH_INTERVAL_MS = 5000;

/**
 * A browser tab sends a heartbeat every 30 s, so 120 a minute is 60 guest tabs behind one address
 * (a household or an office). More than that is someone inflating the visitor counts.
 */
export const GUEST_HEARTBEAT_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };
/**
 * A signed-in user's heartbeats (all their tabs and sessions), limited as a guest address's: each
 * may carry a page view, and one account sending tens of thousands is inflating the counts
 * (issue 26: 40,000 in 7 s were all accepted).
 */
export const USER_HEARTBEAT_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

/** Everything the app needs, built once from the configuration. */
export interface Deps {
  config: Config;
  database: Database;
  redis: Redis | undefined;
  events: DomainEventBus;
  bus: InvalidationBus;
  rateLimiter: RateLimiter;
  authRateLimits: AuthRateLimits;
  /** Guest heartbeats per client address (in-process: a shared counter would cost a round trip). */
  guestHeartbeatLimit: RateLimitRule;
  /** Heartbeats per signed-in user (in-process, as the guests'). */
  userHeartbeatLimit: RateLimitRule;
  users: UsersRepo;
  auth: AuthService;
  sessions: SessionService;
  /** Two-factor sign-in: TOTP, recovery codes, login challenges (issue 29). */
  twoFactor: TwoFactorService;
  adminUsers: AdminUsersService;
  profile: ProfileService;
  /** The only way services reach Socket.IO (attached once the HTTP server exists). */
  notifier: AdminNotifier;
  presence: PresenceService;
  analytics: AnalyticsService;
  /** Site analytics (issue 20): page views in batches, and the admin's queries over them. */
  collector: Collector;
  siteAnalytics: AnalyticsQueryService;
  gameStatus: GameServerMonitor;
  /** The in-process WolfScape and Rocket Game servers (attached with Socket.IO). */
  multiplayer: MultiplayerHub;
  /** Tickets that let a game on the games origin join a multiplayer namespace (issue 16). */
  playTickets: PlayTickets;
  /** The game SDK's records: play sessions, saves, achievements. */
  games: GamesService;
  /** Leaderboards: boards per game, players' best scores per period. */
  leaderboards: LeaderboardService;
  /** Achievement catalogues per game. */
  achievements: AchievementService;
  /** Stripe checkout, webhooks and the customer portal (503 while Stripe is not configured). */
  subscriptions: SubscriptionService;
  subscriptionRateLimits: SubscriptionRateLimits;
  /** POST /run-code: the sandboxed C++ runner (its queue, cache and sandbox check). */
  codeRunner: CodeRunner;
  /** C++ runs per client address. */
  runCodeRateLimit: RateLimitRule;
  /** Shared code-box snippets (POST/GET /api/snippets). */
  snippets: SnippetsService;
  /** Snippet shares per client address. */
  snippetShareLimit: RateLimitRule;
  /** The game host (issue 16): database catalogue, builds, admin API, tokens, grants. */
  gameHost: GameHost;
  /** Signs and checks the games origin's access grants for subscriber games (issue 16). */
  gameGrants: GameGrants;
  /** What the games origin's file server asks about a game (cached, refreshed on change). */
  gameHostCatalogue: GameHostCatalogue;
  /** The mail queue (issue 29): SMTP_URL, or the admin's outbox. */
  mail: MailQueue;
  /** Tells holders of admin-granted subscriptions ending soon (run with the grant check). */
  mailGrantsEndingSoon: (now?: Date) => Promise<number>;
  /** Single-use tokens sent by mail (password resets, email confirmations). */
  emailTokens: EmailTokens;
  passwordReset: PasswordResetService;
  emailConfirmation: EmailConfirmation;
  passwordResetLimits: PasswordResetLimits;
  /** The site's public origin, for links in mail (PUBLIC_ORIGIN, else this process's address). */
  siteOrigin: () => string;
  /** Periodic work (flushes); stopped and run one last time at shutdown. */
  timers: NodeJS.Timeout[];
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Start PGlite from a prepared data directory (tests). */
  loadDataDir?: Blob;
  authRateLimits?: AuthRateLimits;
  subscriptionRateLimits?: SubscriptionRateLimits;
  guestHeartbeatLimit?: RateLimitRule;
  userHeartbeatLimit?: RateLimitRule;
  /** Clock for presence and analytics (tests). */
  now?: () => number;
  /** How often site analytics events are written (tests use a long one and flush). */
  eventFlushIntervalMs?: number;
  /** How often presence time and visitor rollups are flushed (tests use a long one). */
  analyticsFlushIntervalMs?: number;
  /** An already open database instead of opening one (tests that inspect it after shutdown). */
  database?: Database;
  /** Another C++ runner (tests inject one whose sandbox check fails). */
  codeRunner?: CodeRunner;
  runCodeRateLimit?: RateLimitRule;
  snippetShareLimit?: RateLimitRule;
  /** Another catalogue for the games origin (tests serve fixture builds from a folder). */
  gameHostCatalogue?: GameHostCatalogue;
  /** Retry intervals of the mail queue (tests use short ones). */
  mailRetry?: MailRetry;
  passwordResetLimits?: PasswordResetLimits;
}

export async function buildDeps(config: Config, options: BuildOptions = {}): Promise<Deps> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: options.loadDataDir ? 'memory://' : `${config.dataDir}/pglite`,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    }));
  const redis = config.redisUrl ? connectRedis(config.redisUrl, 'main') : undefined;
  const redisSubscriber = config.redisUrl
    ? connectRedis(config.redisUrl, 'subscriber', { subscriber: true })
    : undefined;
  if (redis && redisSubscriber) {
    // give the connections a moment; if Redis is down, presence and rate limits fall back to
    // memory and the bus subscribes when Redis comes up
    await Promise.all([waitForRedis(redis), waitForRedis(redisSubscriber)]).catch(
      (error: unknown) =>
        console.warn(
          '[redis] not ready at startup',
          error instanceof Error ? error.message : error,
        ),
    );
  }
  const events = createDomainEventBus();
  const bus =
    redis && redisSubscriber
      ? createRedisInvalidationBus(redis, redisSubscriber, config.redisPrefix)
      : createLocalInvalidationBus();
  const rateLimiter = redis
    ? createRedisRateLimiter(redis, { prefix: config.redisPrefix })
    : createMemoryRateLimiter();
  const users = createUsersRepo(database.db);
  const auth = createAuthService({ users, events });
  const sessions = createSessionService({ db: database.db, secret: config.sessionSecret, bus });
  // a demoted or deleted user must not keep a cached session anywhere
  events.on('user:role-changed', ({ userId }) => sessions.invalidateUser(userId));
  events.on('user:deleted', ({ userId }) => sessions.invalidateUser(userId));
  const twoFactor = createTwoFactorService({
    db: database.db,
    users,
    secret: config.sessionSecret,
    // cached sessions carry whether 2FA is on (ADMIN_REQUIRE_2FA reads it): read them again
    onChange: (userId) => sessions.invalidateUser(userId),
    ...(options.now ? { now: options.now } : {}),
  });
  /** A game's title in the database catalogue (read when asked: the host is made below). */
  const gameTitle = (gameId: string) => gameHost.catalogue.get(gameId)?.game.title;
  const gameRecords = createGameRecordsReader(database.db, gameTitle);
  const adminUsers = createAdminUsersService({ db: database.db, users, gameRecords, events });
  // links in mail name the public origin; without one (development, tests) this process's address
  // as it listens (config.port is the real port once listening)
  const siteOrigin = () => {
    if (config.publicOrigin) {
      return config.publicOrigin;
    }
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  };
  const smtp = config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl) : undefined;
  if (!smtp && config.env !== 'test') {
    console.info("[mail] no SMTP_URL: mail is kept in the admin's outbox (GET /api/admin/mail)");
  }
  const mail = createMailQueue({
    db: database.db,
    transport: smtp,
    from: () => config.mail.from ?? defaultMailFrom(siteOrigin()),
    ...(options.mailRetry ? { retry: options.mailRetry } : {}),
    ...(config.env === 'test' ? { log: () => undefined } : {}),
  });
  mail.start();
  const emailTokens = createEmailTokens(database.db);
  const emailConfirmation = createEmailConfirmation({
    db: database.db,
    users,
    tokens: emailTokens,
    mail,
    siteOrigin,
  });
  // a registration's email gets its link after the answer (the mail is queued, never awaited)
  events.on('user:registered', ({ userId }) => {
    emailConfirmation
      .afterRegistration(userId)
      .catch((error: unknown) => console.error('[mail] confirmation link failed', error));
  });
  const profile = createProfileService({
    users,
    sessions,
    gameRecords,
    confirmation: emailConfirmation,
  });
  const passwordReset = createPasswordResetService({
    db: database.db,
    users,
    sessions,
    tokens: emailTokens,
    mail,
    rateLimiter,
    siteOrigin,
  });
  const notifier = createAdminNotifier();
  const now = options.now ?? Date.now;
  const analytics = createAnalyticsService({
    repo: createAnalyticsRepo(database.db),
    events,
    notifier,
    now,
  });
  const presenceStore = redis
    ? withFallback(
        createRedisPresenceStore(redis, { prefix: config.redisPrefix }),
        createMemoryPresenceStore(),
      )
    : createMemoryPresenceStore();
  const presence = createPresenceService({
    store: presenceStore,
    db: database.db,
    analytics,
    notifier,
    events,
    secret: config.sessionSecret,
    now,
  });
  const eventsRepo = createEventsRepo(database.db);
  const collector = createCollector({ db: database.db, repo: eventsRepo, now });
  const siteAnalytics = createAnalyticsQueryService({
    db: database.db,
    repo: eventsRepo,
    playingNow: () => presence.countPlaying(),
    // every game of the database's catalogue, published or not (the host is made below)
    games: () => gameHost.catalogue.list().map(({ game }) => ({ id: game.id, title: game.title })),
    now,
    segmentCacheBytes: config.analyticsSegmentCacheBytes,
  });
  /**
   * Whole days are rolled up and old partitions dropped at start and every 10 minutes, one run
   * at a time (a long one, such as building the segments of a year's days, is not started twice).
   */
  let maintenance: Promise<void> | undefined;
  const maintainAnalytics = () => {
    maintenance ??= (async () => {
      try {
        await siteAnalytics.applyRetention(config.analyticsRetentionDays);
        await siteAnalytics.rollUp();
      } catch (error) {
        console.error('[analytics] maintenance failed', error);
      } finally {
        maintenance = undefined;
      }
    })();
    return maintenance;
  };
  void maintainAnalytics();
  const multiplayer = createMultiplayerHub();
  const playTickets = createPlayTickets(config.sessionSecret);
  const gameStatus = createGameServerMonitor({
    healthUrls: config.gameServerHealthUrls,
    notifier,
    localHealth: (serverType) => multiplayer.health(serverType),
  });
  gameStatus.start();
  const subscriptions = createSubscriptionService({
    stripe: config.stripe ? createStripeClient(config.stripe) : undefined,
    config: config.stripe,
    repo: createSubscriptionRepo(database.db),
    events,
    notify: createSubscriberMail({
      db: database.db,
      mail,
      siteOrigin,
      secret: config.sessionSecret,
    }),
  });
  // the built-in catalogue and demo builds are seeded here, before the app takes requests
  const gameHost = await createGameHost({ config, database, bus, demoDir: DEFAULT_GAMES_DIR });
  const flushAnalytics = async () => {
    await presence
      .flush()
      .catch((error: unknown) => console.error('[presence] flush failed', error));
    await analytics
      .flush()
      .catch((error: unknown) => console.error('[analytics] flush failed', error));
  };
  const timers: NodeJS.Timeout[] = [];
  const flushEvents = () =>
    collector.flush().catch((error: unknown) => console.error('[analytics] flush failed', error));
  timers.push(
    setInterval(
      () => void flushEvents(),
      options.eventFlushIntervalMs ?? EVENT_FLUSH_INTERVAL_MS,
    ).unref(),
    setInterval(() => void maintainAnalytics(), ROLLUP_INTERVAL_MS).unref(),
  );
  timers.push(
    setInterval(
      () => void flushAnalytics(),
      options.analyticsFlushIntervalMs ?? ANALYTICS_FLUSH_INTERVAL_MS,
    ).unref(),
  );
  timers.push(
    setInterval(
      () =>
        void sessions
          .flush()
          .catch((error: unknown) => console.error('[sessions] flush failed', error)),
      10_000,
    ).unref(),
  );
  const mailGrantsEndingSoon = createGrantEndingMail({
    db: database.db,
    mail,
    siteOrigin,
    secret: config.sessionSecret,
  });
  const endExpiredGrants = () =>
    Promise.all([
      adminUsers
        .endExpiredGrants()
        .catch((error: unknown) =>
          console.error('[users] ending granted subscriptions failed', error),
        ),
      mailGrantsEndingSoon().catch((error: unknown) =>
        console.error('[mail] telling of granted subscriptions ending failed', error),
      ),
    ]);
  void endExpiredGrants();
  timers.push(setInterval(() => void endExpiredGrants(), GRANT_CHECK_INTERVAL_MS).unref());
  timers.push(
    setInterval(
      () =>
        void gameHost.catalogue
          .refresh()
          .catch((error: unknown) => console.error('[game-host] catalogue refresh failed', error)),
      CATALOGUE_REFRESH_INTERVAL_MS,
    ).unref(),
  );

  const deps: Deps = {
    config,
    database,
    redis,
    events,
    bus,
    rateLimiter,
    authRateLimits: options.authRateLimits ?? {
      ...DEFAULT_AUTH_RATE_LIMITS,
      loginPerIp: { ...DEFAULT_AUTH_RATE_LIMITS.loginPerIp, limit: config.loginLimitPer5Minutes },
      registerPerIp: {
        ...DEFAULT_AUTH_RATE_LIMITS.registerPerIp,
        limit: config.registerLimitPerHour,
      },
    },
    guestHeartbeatLimit: options.guestHeartbeatLimit ?? GUEST_HEARTBEAT_LIMIT,
    userHeartbeatLimit: options.userHeartbeatLimit ?? USER_HEARTBEAT_LIMIT,
    users,
    auth,
    sessions,
    twoFactor,
    adminUsers,
    profile,
    notifier,
    presence,
    analytics,
    collector,
    siteAnalytics,
    gameStatus,
    multiplayer,
    playTickets,
    games: createGamesService({ db: database.db, gameTitle }),
    leaderboards: createLeaderboardService({ db: database.db, now }),
    achievements: createAchievementService({ db: database.db, gamesDir: config.gamesHost.dir }),
    subscriptions,
    mailGrantsEndingSoon,
    subscriptionRateLimits: options.subscriptionRateLimits ?? DEFAULT_SUBSCRIPTION_RATE_LIMITS,
    // the sandbox is checked on first use, or in the background after start (main.ts)
    codeRunner:
      options.codeRunner ??
      createCodeRunner({
        dir: `${config.dataDir}/run-code`,
        backend: config.runCodeBackend,
        slotSecondsPerMinute: config.runCodeSlotSecondsPerMinute,
        log: (message) => console.warn(`[run-code] ${message}`),
      }),
    runCodeRateLimit: options.runCodeRateLimit ?? {
      limit: config.runCodeLimitPerMinute,
      windowMs: 60_000,
    },
    snippets: createSnippetsService({ db: database.db }),
    snippetShareLimit: options.snippetShareLimit ?? SNIPPET_SHARE_LIMIT,
    gameHost,
    gameGrants: gameHost.grants,
    // tests may serve fixture builds from a catalogue of their own
    gameHostCatalogue: options.gameHostCatalogue ?? gameHost.catalogue,
    mail,
    emailTokens,
    passwordReset,
    emailConfirmation,
    passwordResetLimits: options.passwordResetLimits ?? DEFAULT_PASSWORD_RESET_LIMITS,
    siteOrigin,
    timers,
    async close() {
      timers.forEach(clearInterval);
      await mail.close();
      smtp?.close();
      presence.close();
      gameStatus.stop();
      // time on site and rollups gathered since the last flush are written before the database closes
      await flushAnalytics();
      await maintenance;
      await flushEvents();
      await sessions
        .flush()
        .catch((error: unknown) => console.error('[sessions] final flush failed', error));
      await bus.close();
      deps.codeRunner.close();
      redis?.disconnect();
      redisSubscriber?.disconnect();
      await database.close();
    },
  };
  return deps;
}
