import type { Redis } from 'ioredis';

import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { type DomainEventBus, createDomainEventBus } from './lib/events.js';
import { type InvalidationBus, createLocalInvalidationBus, createRedisInvalidationBus } from './lib/invalidation-bus.js';
import { type RateLimiter, createMemoryRateLimiter, createRedisRateLimiter } from './lib/rate-limit.js';
import { connectRedis } from './lib/redis.js';
import { DEFAULT_AUTH_RATE_LIMITS, type AuthRateLimits } from './modules/auth/routes.js';
import { type AuthService, createAuthService } from './modules/auth/service.js';
import { type SessionService, createSessionService } from './modules/auth/session-service.js';
import { type UsersRepo, createUsersRepo } from './modules/users/repo.js';

/** Everything the app needs, built once from the configuration. */
export interface Deps {
  config: Config;
  database: Database;
  redis: Redis | undefined;
  events: DomainEventBus;
  bus: InvalidationBus;
  rateLimiter: RateLimiter;
  authRateLimits: AuthRateLimits;
  users: UsersRepo;
  auth: AuthService;
  sessions: SessionService;
  /** Periodic work (flushes); stopped and run one last time at shutdown. */
  timers: NodeJS.Timeout[];
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Start PGlite from a prepared data directory (tests). */
  loadDataDir?: Blob;
  authRateLimits?: AuthRateLimits;
}

export async function buildDeps(config: Config, options: BuildOptions = {}): Promise<Deps> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.loadDataDir ? 'memory://' : `${config.dataDir}/pglite`,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const redis = config.redisUrl ? connectRedis(config.redisUrl, 'main') : undefined;
  const redisSubscriber = config.redisUrl ? connectRedis(config.redisUrl, 'subscriber') : undefined;
  const events = createDomainEventBus();
  const bus = redis && redisSubscriber ? createRedisInvalidationBus(redis, redisSubscriber) : createLocalInvalidationBus();
  const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();
  const users = createUsersRepo(database.db);
  const auth = createAuthService({ users, events });
  const sessions = createSessionService({ db: database.db, secret: config.sessionSecret, bus });
  const timers: NodeJS.Timeout[] = [];
  timers.push(setInterval(() => void sessions.flush().catch((error: unknown) => console.error('[sessions] flush failed', error)), 10_000).unref());

  const deps: Deps = {
    config,
    database,
    redis,
    events,
    bus,
    rateLimiter,
    authRateLimits: options.authRateLimits ?? DEFAULT_AUTH_RATE_LIMITS,
    users,
    auth,
    sessions,
    timers,
    async close() {
      timers.forEach(clearInterval);
      await sessions.flush().catch((error: unknown) => console.error('[sessions] final flush failed', error));
      await bus.close();
      redis?.disconnect();
      redisSubscriber?.disconnect();
      await database.close();
    },
  };
  return deps;
}
