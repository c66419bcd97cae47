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
import { createAnalyticsRepo } from './modules/analytics/dashboard/repo.js';
import {
  type Collector,
  createCollector,
  EVENT_FLUSH_INTERVAL_MS,
} from './modules/analytics/site/collector.js';
import { createEventsRepo } from './modules/analytics/site/events-repo.js';
import type { KnownContent } from './modules/analytics/site/page-paths.js';
import {
  type AnalyticsQueryService,
  createAnalyticsQueryService,
  ROLLUP_INTERVAL_MS,
} from './modules/analytics/site/query-service.js';
import { createGamesService, type GamesService } from './modules/games/service.js';
import {
  type AnalyticsService,
  createAnalyticsService,
} from './modules/analytics/dashboard/service.js';
import {
  type AchievementService,
  createAchievementService,
} from './modules/achievements/service.js';
import {
  createLeaderboardService,
  type LeaderboardService,
} from './modules/leaderboards/service.js';
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
import { createMemoryRoomStore } from './modules/rooms/memory-store.js';
import { createRedisRoomStore } from './modules/rooms/redis-store.js';
import { createRoomService, type RoomService } from './modules/rooms/service.js';
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
import { createGameRecordsReader } from './modules/games/game-records.js';
import { type ProfileService, createProfileService } from './modules/users/profile-service.js';
import { type UsersRepo, createUsersRepo } from './modules/users/repo.js';
import { type AdminNotifier, createAdminNotifier } from './lib/admin-notifier.js';
import { type CodeRunner, createCodeRunner } from './modules/run-code/runner.js';
import { SNIPPET_SHARE_LIMIT } from './modules/run-code/snippet-routes.js';
import { createSnippetsService, type SnippetsService } from './modules/run-code/snippets.js';
import { createMediaService, type MediaService } from './modules/media/service.js';
import { mediaUrlOn } from './lib/public-urls.js';
import {
  localSiteStorage,
  openBucketSiteStorage,
  type SiteStorage,
} from './lib/storage/site-storage.js';
import { type Content, createContent } from './modules/content/service.js';
import { CONTENT_REFRESH_INTERVAL_MS } from './modules/content/store.js';
import { createMarkdownRenderer } from './modules/devlog/markdown-renderer.js';
import { createDevlogService, type DevlogService } from './modules/devlog/service.js';
import { createReadiness, type Readiness } from './lib/readiness.js';
import { moduleLogger } from './lib/logger.js';

const redisLog = moduleLogger('redis');
const mailLog = moduleLogger('mail');
const analyticsLog = moduleLogger('analytics');
const presenceLog = moduleLogger('presence');
const sessionsLog = moduleLogger('sessions');
const usersLog = moduleLogger('users');
const gameHostLog = moduleLogger('game-host');
const runCodeLog = moduleLogger('run-code');
const mediaLog = moduleLogger('media');
const contentLog = moduleLogger('content');
const devlogLog = moduleLogger('devlog');

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
 * (40,000 in 7 s were all accepted).
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
  /** Two-factor sign-in: TOTP, recovery codes, login challenges. */
  twoFactor: TwoFactorService;
  adminUsers: AdminUsersService;
  profile: ProfileService;
  /** The only way services reach Socket.IO (attached once the HTTP server exists). */
  notifier: AdminNotifier;
  presence: PresenceService;
  analytics: AnalyticsService;
  /** Site analytics: page views in batches, and the admin's queries over them. */
  collector: Collector;
  siteAnalytics: AnalyticsQueryService;
  gameStatus: GameServerMonitor;
  /** The in-process WolfScape and Rocket Game servers (attached with Socket.IO). */
  multiplayer: MultiplayerHub;
  /** Rooms for any game (issue 38): the /rooms namespace and the admin's live rooms. */
  rooms: RoomService;
  /** Tickets that let a game on the games origin join a multiplayer namespace. */
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
  /**
   * The game host: the database catalogue (what the games origin's file server asks
   * about a game, cached and refreshed on change), builds, admin API, tokens, and the grants that
   * open subscriber games on the games origin.
   */
  gameHost: GameHost;
  /** The owner's gallery, tutorials and site texts in the database. */
  content: Content;
  /** Uploaded media: receive, process, store under MEDIA_DIR, remove when unused. */
  media: MediaService;
  /** The devlog's posts, their feed and cards. */
  devlog: DevlogService;
  /** GET /api/ready: migrated, database and Redis answering, not shutting down. */
  readiness: Readiness;
  /** The mail queue: SMTP_URL, or the admin's outbox. */
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

/**
 * Where the site keeps its files: game builds, thumbnails and achievement icons (GAMES_DIR, or
 * the bucket's games/), uploaded media (MEDIA_DIR, or the bucket's media/). A bucket is checked
 * before anything else starts (StorageUnavailableError says what is wrong), and read through a
 * local disk cache unless STORAGE_CACHE_MAX_MB=0.
 */
async function buildStorage(config: Config): Promise<SiteStorage> {
  return config.storage.kind === 's3'
    ? openBucketSiteStorage(config.storage, config.storage.cache)
    : localSiteStorage({ gamesDir: config.gamesHost.dir, mediaDir: config.media.dir });
}

/** The database, Redis (when configured) and the buses every module is built on. */
async function buildInfrastructure(config: Config, options: BuildOptions) {
  const storage = await buildStorage(config);
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
        redisLog.warn(
          { reason: error instanceof Error ? error.message : error },
          'not ready at startup',
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
  return {
    database,
    redis,
    redisSubscriber,
    events,
    bus,
    rateLimiter,
    storage,
  };
}

type Infrastructure = Awaited<ReturnType<typeof buildInfrastructure>>;

/** Accounts, sessions and two-factor sign-in. */
function buildAuth(config: Config, infra: Infrastructure, options: BuildOptions) {
  const { database, events, bus } = infra;
  const users = createUsersRepo(database.db);
  const auth = createAuthService({ users, events });
  const sessions = createSessionService({
    db: database.db,
    secret: config.sessionSecret,
    bus,
    isAdminTwoFactorRequired: config.adminRequireTwoFactor,
  });
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
  return { users, auth, sessions, twoFactor };
}

/**
 * The site's public origin, for links in mail; without one (development, tests) this process's
 * address as it listens (config.port is the real port once listening).
 */
function siteOriginOf(config: Config): () => string {
  return () => {
    if (config.publicOrigin) {
      return config.publicOrigin;
    }
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  };
}

/** The mail queue (started) and the single-use tokens mail carries. */
function buildMail(
  config: Config,
  infra: Infrastructure,
  options: BuildOptions,
  siteOrigin: () => string,
) {
  const smtp = config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl) : undefined;
  if (!smtp && config.env !== 'test') {
    mailLog.info("no SMTP_URL: mail is kept in the admin's outbox (GET /api/admin/mail)");
  }
  const mail = createMailQueue({
    db: infra.database.db,
    transport: smtp,
    from: () => config.mail.from ?? defaultMailFrom(siteOrigin()),
    ...(options.mailRetry ? { retry: options.mailRetry } : {}),
  });
  mail.start();
  const emailTokens = createEmailTokens(infra.database.db);
  return { smtp, mail, emailTokens };
}

/** The admin's user management, the profile, email confirmation and password resets. */
function buildUsers(
  infra: Infrastructure,
  authModule: ReturnType<typeof buildAuth>,
  mailModule: ReturnType<typeof buildMail>,
  gameHost: GameHost,
  siteOrigin: () => string,
) {
  const { database, events, rateLimiter } = infra;
  const { users, sessions } = authModule;
  const { mail, emailTokens } = mailModule;
  /** A game's title in the database catalogue. */
  const gameTitle = (gameId: string) => gameHost.catalogue.get(gameId)?.game.title;
  const gameRecords = createGameRecordsReader(database.db, gameTitle);
  const adminUsers = createAdminUsersService({ db: database.db, users, gameRecords, events });
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
      .catch((error: unknown) => mailLog.error({ err: error }, 'confirmation link failed'));
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
  // a registration with a used address is answered as a success; the address's owner is told
  events.on('user:registration-email-taken', ({ email }) => {
    passwordReset
      .tellOwnerOfRegistration(email)
      .catch((error: unknown) => mailLog.error({ err: error }, 'registration notice failed'));
  });
  return { gameTitle, adminUsers, emailConfirmation, profile, passwordReset };
}

/** Presence, the dashboard's analytics and site analytics (with its maintenance runs). */
function buildPresenceAndAnalytics(
  config: Config,
  infra: Infrastructure,
  notifier: AdminNotifier,
  gameHost: GameHost,
  now: () => number,
  /** The posts, games and projects site analytics counts as pages of their own. */
  known: KnownContent,
) {
  const { database, redis, events } = infra;
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
  const collector = createCollector({ db: database.db, repo: eventsRepo, now, known });
  const siteAnalytics = createAnalyticsQueryService({
    db: database.db,
    repo: eventsRepo,
    playingNow: () => presence.countPlaying(),
    // every game of the database's catalogue, published or not
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
        analyticsLog.error({ err: error }, 'maintenance failed');
      } finally {
        maintenance = undefined;
      }
    })();
    return maintenance;
  };
  void maintainAnalytics();
  const flushAnalytics = async () => {
    await presence
      .flush()
      .catch((error: unknown) => presenceLog.error({ err: error }, 'flush failed'));
    await analytics
      .flush()
      .catch((error: unknown) => analyticsLog.error({ err: error }, 'flush failed'));
  };
  const flushEvents = () =>
    collector.flush().catch((error: unknown) => analyticsLog.error({ err: error }, 'flush failed'));
  return {
    analytics,
    presence,
    collector,
    siteAnalytics,
    maintainAnalytics,
    /** The maintenance run under way, if any. */
    maintenance: () => maintenance,
    flushAnalytics,
    flushEvents,
  };
}

/**
 * The in-process multiplayer servers, their play tickets, the game servers' health, and rooms
 * for any game (in Redis with REDIS_URL, so they span replicas; else in memory).
 */
function buildMultiplayer(
  config: Config,
  notifier: AdminNotifier,
  { infra, gameHost, now }: { infra: Infrastructure; gameHost: GameHost; now: () => number },
) {
  const rooms = createRoomService({
    db: infra.database.db,
    store: infra.redis
      ? createRedisRoomStore(infra.redis, { prefix: config.redisPrefix })
      : createMemoryRoomStore(now),
    catalogue: gameHost.catalogue,
    now,
  });
  const multiplayer = createMultiplayerHub({ rooms });
  const playTickets = createPlayTickets(config.sessionSecret);
  const gameStatus = createGameServerMonitor({
    healthUrls: config.gameServerHealthUrls,
    notifier,
    localHealth: (serverType) => multiplayer.health(serverType),
  });
  gameStatus.start();
  return { multiplayer, playTickets, gameStatus, rooms };
}

/** Stripe subscriptions and the mail they send. */
function buildSubscriptions(
  config: Config,
  infra: Infrastructure,
  mail: MailQueue,
  siteOrigin: () => string,
) {
  const { database, events } = infra;
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
  const mailGrantsEndingSoon = createGrantEndingMail({
    db: database.db,
    mail,
    siteOrigin,
    secret: config.sessionSecret,
  });
  return { subscriptions, mailGrantsEndingSoon };
}

/**
 * The owner's portfolio: uploaded media, the gallery, tutorials and site texts (the spec's content
 * seeded on a fresh database, then read into memory) and the devlog (a welcome post on a new site).
 * The media library asks the gallery and the posts what they still show.
 */
async function buildContent(
  config: Config,
  infra: Infrastructure,
  gameHost: GameHost,
  now: () => number,
) {
  const { database, bus } = infra;
  const media = createMediaService({
    db: database.db,
    config: config.media,
    storage: infra.storage.media,
  });
  await media
    .sweepIncoming()
    .catch((error: unknown) => mediaLog.error({ err: error }, 'sweeping old uploads failed'));
  const mediaUrl = mediaUrlOn(config.media.publicUrl);
  const content = await createContent({
    db: database.db,
    bus,
    mediaUrl,
    releaseMedia: (urls) =>
      media
        .removeUnusedMedia(urls)
        .catch((error: unknown) =>
          mediaLog.error({ err: error }, 'removing unused uploads failed'),
        ),
  });
  media.addReferenceSource({
    kind: 'gallery project',
    titlesUsing: (urls) => content.gallery.titlesUsingMedia(urls),
  });
  const gameTitle = (gameId: string) => gameHost.catalogue.get(gameId)?.game.title;
  const devlog = createDevlogService({
    db: database.db,
    bus,
    gameTitle,
    markdown: createMarkdownRenderer(),
    now,
    mediaUrl,
  });
  media.addReferenceSource({
    kind: 'devlog post',
    titlesUsing: (urls) => devlog.titlesUsingMedia(urls),
  });
  await devlog
    .seedWelcomePost()
    .catch((error: unknown) => devlogLog.error({ err: error }, 'the welcome post failed'));
  // what an address may name that the public can open (site analytics counts each as a page)
  const known: KnownContent = {
    isPublishedPost: async (slug) => (await devlog.getPublishedCached(slug)) !== undefined,
    isPublishedGame: (gameId) => gameHost.catalogue.get(gameId)?.game.published === true,
    isGalleryProject: (projectId) =>
      content.store.gallery().some((project) => project.id === projectId),
  };
  return { media, content, devlog, known };
}

/** The sign-in and registration limits, with the configured counts. */
const authRateLimitsOf = (config: Config) => ({
  ...DEFAULT_AUTH_RATE_LIMITS,
  loginPerIp: { ...DEFAULT_AUTH_RATE_LIMITS.loginPerIp, limit: config.loginLimitPer5Minutes },
  registerPerIp: {
    ...DEFAULT_AUTH_RATE_LIMITS.registerPerIp,
    limit: config.registerLimitPerHour,
  },
});

/** The game host; the built-in catalogue and demo builds are seeded before the app takes requests. */
const buildGameHost = (config: Config, { database, bus, storage }: Infrastructure) =>
  createGameHost({ config, database, bus, demoDir: DEFAULT_GAMES_DIR, storage: storage.games });

/** Everything the app needs, built once from the configuration, module by module. */
export async function buildDeps(config: Config, options: BuildOptions = {}): Promise<Deps> {
  const infra = await buildInfrastructure(config, options);
  const { database, redis, redisSubscriber, events, bus, rateLimiter } = infra;
  const now = options.now ?? Date.now;
  const gameHost = await buildGameHost(config, infra);
  const { media, content, devlog, known } = await buildContent(config, infra, gameHost, now);
  const authModule = buildAuth(config, infra, options);
  const { sessions } = authModule;
  const siteOrigin = siteOriginOf(config);
  const mailModule = buildMail(config, infra, options, siteOrigin);
  const { smtp, mail } = mailModule;
  const usersModule = buildUsers(infra, authModule, mailModule, gameHost, siteOrigin);
  const { adminUsers } = usersModule;
  const notifier = createAdminNotifier();
  const analyticsModule = buildPresenceAndAnalytics(config, infra, notifier, gameHost, now, known);
  const { presence, collector, flushAnalytics, flushEvents, maintainAnalytics } = analyticsModule;
  const multiplayerModule = buildMultiplayer(config, notifier, { infra, gameHost, now });
  const subscriptionModule = buildSubscriptions(config, infra, mail, siteOrigin);
  const { mailGrantsEndingSoon } = subscriptionModule;

  const endExpiredGrants = () =>
    Promise.all([
      adminUsers
        .endExpiredGrants()
        .catch((error: unknown) =>
          usersLog.error({ err: error }, 'ending granted subscriptions failed'),
        ),
      mailGrantsEndingSoon().catch((error: unknown) =>
        mailLog.error({ err: error }, 'telling of granted subscriptions ending failed'),
      ),
    ]);
  void endExpiredGrants();
  const timers: NodeJS.Timeout[] = [
    setInterval(
      () => void flushEvents(),
      options.eventFlushIntervalMs ?? EVENT_FLUSH_INTERVAL_MS,
    ).unref(),
    setInterval(() => void maintainAnalytics(), ROLLUP_INTERVAL_MS).unref(),
    setInterval(
      () => void flushAnalytics(),
      options.analyticsFlushIntervalMs ?? ANALYTICS_FLUSH_INTERVAL_MS,
    ).unref(),
    setInterval(
      () =>
        void sessions
          .flush()
          .catch((error: unknown) => sessionsLog.error({ err: error }, 'flush failed')),
      10_000,
    ).unref(),
    setInterval(() => void endExpiredGrants(), GRANT_CHECK_INTERVAL_MS).unref(),
    setInterval(
      () =>
        void content.store
          .refresh()
          .catch((error: unknown) => contentLog.error({ err: error }, 'refresh failed')),
      CONTENT_REFRESH_INTERVAL_MS,
    ).unref(),
    setInterval(
      () =>
        void gameHost.catalogue
          .refresh()
          .catch((error: unknown) => gameHostLog.error({ err: error }, 'catalogue refresh failed')),
      CATALOGUE_REFRESH_INTERVAL_MS,
    ).unref(),
  ];

  const deps: Deps = {
    config,
    database,
    redis,
    events,
    bus,
    rateLimiter,
    authRateLimits: options.authRateLimits ?? authRateLimitsOf(config),
    guestHeartbeatLimit: options.guestHeartbeatLimit ?? GUEST_HEARTBEAT_LIMIT,
    userHeartbeatLimit: options.userHeartbeatLimit ?? USER_HEARTBEAT_LIMIT,
    users: authModule.users,
    auth: authModule.auth,
    sessions,
    twoFactor: authModule.twoFactor,
    adminUsers,
    profile: usersModule.profile,
    notifier,
    presence,
    analytics: analyticsModule.analytics,
    collector,
    siteAnalytics: analyticsModule.siteAnalytics,
    gameStatus: multiplayerModule.gameStatus,
    multiplayer: multiplayerModule.multiplayer,
    rooms: multiplayerModule.rooms,
    playTickets: multiplayerModule.playTickets,
    games: createGamesService({ db: database.db, gameTitle: usersModule.gameTitle }),
    leaderboards: createLeaderboardService({ db: database.db, now, redis, config }),
    achievements: createAchievementService({ db: database.db, storage: gameHost.storage }),
    subscriptions: subscriptionModule.subscriptions,
    mailGrantsEndingSoon,
    subscriptionRateLimits: options.subscriptionRateLimits ?? DEFAULT_SUBSCRIPTION_RATE_LIMITS,
    // the sandbox is checked on first use, or in the background after start (main.ts)
    codeRunner:
      options.codeRunner ??
      createCodeRunner({
        dir: `${config.dataDir}/run-code`,
        backend: config.runCodeBackend,
        slotSecondsPerMinute: config.runCodeSlotSecondsPerMinute,
        compileSecondsPerMinute: config.runCodeCompileSecondsPerMinute,
        compileWallSeconds: config.runCodeCompileWallSeconds,
        log: (message) => runCodeLog.warn(message),
      }),
    runCodeRateLimit: options.runCodeRateLimit ?? {
      limit: config.runCodeLimitPerMinute,
      windowMs: 60_000,
    },
    snippets: createSnippetsService({ db: database.db }),
    snippetShareLimit: options.snippetShareLimit ?? SNIPPET_SHARE_LIMIT,
    gameHost,
    content,
    media,
    devlog,
    readiness: createReadiness({ database, redis }),
    mail,
    emailTokens: mailModule.emailTokens,
    passwordReset: usersModule.passwordReset,
    emailConfirmation: usersModule.emailConfirmation,
    passwordResetLimits: options.passwordResetLimits ?? DEFAULT_PASSWORD_RESET_LIMITS,
    siteOrigin,
    timers,
    async close() {
      timers.forEach(clearInterval);
      await mail.close();
      smtp?.close();
      presence.close();
      deps.gameStatus.stop();
      // time on site and rollups gathered since the last flush are written before the database closes
      await flushAnalytics();
      await analyticsModule.maintenance();
      await flushEvents();
      await sessions
        .flush()
        .catch((error: unknown) => sessionsLog.error({ err: error }, 'final flush failed'));
      await bus.close();
      deps.codeRunner.close();
      await devlog.close();
      await deps.leaderboards.sets?.close();
      redis?.disconnect();
      redisSubscriber?.disconnect();
      await database.close();
    },
  };
  return deps;
}
