import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import { DEFAULT_SITE_CONFIG, Password, type SiteConfig, Username } from '@portfolio/types';

// lib/sites.ts imports nothing of ours: lib/security.ts would load the logger, which reads this file
import type { ConnectionLimits } from './lib/connection-limits.js';
import { LogFormat, LogLevel, type LogSettings, readLogSettings } from './lib/log-settings.js';
import { isLoopbackHostName, isSameSite } from './lib/sites.js';

export type { ConnectionLimits, LogSettings };

// `FOO=` in a .env file or compose means "not set": without this, PORT= became port 0 (a random
// port) and DATA_DIR= the current directory.
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema);
const optionalString = unsetIfEmpty(z.string().optional());

/** An http(s) address without query or fragment, its trailing '/' dropped (a CDN's). */
const publicUrlSetting = unsetIfEmpty(
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine((url) => !/[?#]/.test(url), { error: 'must have no ?query or #fragment' })
    .transform((url) => new URL(url).href.replace(/\/+$/, ''))
    .optional(),
);

/**
 * The repository's root: this file is apps/server/src/config.ts, and bundled it is
 * apps/server/dist/<entry>.js, three folders below the root either way.
 */
export const REPOSITORY_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../..',
);

/**
 * Where a path setting (DATA_DIR, GAMES_DIR, MEDIA_DIR, WEB_DIST_DIR) points: a relative one is
 * read from the repository's root, never from the folder a command happens to run in (npm runs
 * the server from the root but the backup and restore scripts in apps/server).
 */
export const resolveSettingPath = (value: string) => path.resolve(REPOSITORY_ROOT, value);

const EnvSchema = z
  .object({
    NODE_ENV: unsetIfEmpty(z.enum(['development', 'production', 'test']).default('development')),
    // this machine only, unless set: the Docker image and compose set 0.0.0.0 themselves
    HOST: unsetIfEmpty(z.string().default('127.0.0.1')),
    PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).default(3000)),
    DATA_DIR: unsetIfEmpty(z.string().default('./data')),
    DATABASE_URL: unsetIfEmpty(z.url().optional()),
    REDIS_URL: unsetIfEmpty(z.url().optional()),
    REDIS_PREFIX: unsetIfEmpty(
      z
        .string()
        .regex(/^[\w.-]+$/, 'letters, digits, _ . - only')
        .default('portfolio'),
    ),
    SESSION_SECRET: unsetIfEmpty(z.string().min(32, 'must be at least 32 characters').optional()),
    // compared with the browser's Origin header, which never has a path or trailing slash
    PUBLIC_ORIGIN: unsetIfEmpty(
      z
        .url()
        .transform((url) => new URL(url).origin)
        .optional(),
    ),
    TRUST_PROXY: unsetIfEmpty(z.string().optional()),
    // the same rules as registration: an admin created from here must be able to log in
    ADMIN_USERNAME: unsetIfEmpty(Username.optional()),
    ADMIN_PASSWORD: unsetIfEmpty(Password.optional()),
    // admins must sign in with two-factor; default on in production only
    ADMIN_REQUIRE_2FA: unsetIfEmpty(z.enum(['true', 'false']).optional()),
    STRIPE_SECRET_KEY: unsetIfEmpty(
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_… or rk_…)')
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: unsetIfEmpty(
      z
        .string()
        .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_…)')
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: unsetIfEmpty(
      z
        .string()
        .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
        .optional(),
    ),
    STRIPE_PRICE_ID: unsetIfEmpty(
      z
        .string()
        .regex(/^price_\w+$/, 'must be a Stripe price id (price_…)')
        .optional(),
    ),
    // another Stripe API address (stripe-mock); https://api.stripe.com when unset
    STRIPE_API_URL: unsetIfEmpty(z.url({ protocol: /^https?$/ }).optional()),
    WEB_DIST_DIR: optionalString,
    // accounts one address may register per hour (a school or office shares one address)
    REGISTER_LIMIT_PER_HOUR: unsetIfEmpty(z.coerce.number().int().min(1).default(10)),
    // login attempts one client address may make per 5 minutes
    LOGIN_LIMIT_PER_5_MINUTES: unsetIfEmpty(z.coerce.number().int().min(1).default(30)),
    // C++ runs one client address may start per minute (POST /run-code)
    RUN_CODE_LIMIT_PER_MINUTE: unsetIfEmpty(z.coerce.number().int().min(1).default(30)),
    // which C++ backend runs programs: auto = the native sandbox when its self-test passes here,
    // else Clang in WebAssembly
    RUN_CODE_BACKEND: unsetIfEmpty(z.enum(['auto', 'native', 'wasm']).default('auto')),
    // seconds of runner slot time one address (or user) may hold per minute
    // site analytics: days of events kept; older days' partitions are dropped whole
    ANALYTICS_RETENTION_DAYS: unsetIfEmpty(z.coerce.number().int().min(1).max(3650).default(400)),
    // memory for the day segments that views under two or more filters read, per process
    ANALYTICS_SEGMENT_CACHE_MB: unsetIfEmpty(
      z.coerce.number().int().min(1).max(65536).default(256),
    ),
    RUN_CODE_SLOT_SECONDS_PER_MINUTE: unsetIfEmpty(
      z.coerce.number().int().min(5).max(600).default(30),
    ),
    RUN_CODE_COMPILE_SECONDS_PER_MINUTE: unsetIfEmpty(
      z.coerce.number().int().min(5).max(600).default(30),
    ),
    RUN_CODE_COMPILE_WALL_SECONDS: unsetIfEmpty(
      z.coerce.number().int().min(10).max(300).default(30),
    ),
    // the games origin: where uploaded builds are served, apart from the site. Set it in
    // production to another site (registrable domain) than PUBLIC_ORIGIN's, e.g.
    // https://example-games.net beside https://example.com, and route it to GAMES_PORT; unset,
    // the same process serves it on the other loopback name (localhost <-> 127.0.0.1) and port
    // GAMES_PORT
    GAMES_ORIGIN: unsetIfEmpty(
      z
        .url({ protocol: /^https?$/ })
        .transform((url) => new URL(url).origin)
        .optional(),
    ),
    // start although the games origin shares the site's cookie jar (a game could then sign its
    // players into another account): for a setup that cannot have a second domain yet
    GAMES_ORIGIN_ALLOW_SAME_SITE: unsetIfEmpty(z.enum(['true', 'false']).default('false')),
    // the games origin's port on this process; default PORT + 1 (0 with PORT=0: any free port)
    GAMES_PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).optional()),
    // where builds are stored (default DATA_DIR/games): back it up with the database
    GAMES_DIR: optionalString,
    // the largest build upload (bytes, default 500 MB) and the zip limits that guard against bombs
    GAME_UPLOAD_MAX_BYTES: unsetIfEmpty(
      z.coerce
        .number()
        .int()
        .min(1024)
        .default(500 * 1024 * 1024),
    ),
    GAME_ZIP_MAX_FILES: unsetIfEmpty(z.coerce.number().int().min(1).default(20_000)),
    GAME_ZIP_MAX_UNPACKED_BYTES: unsetIfEmpty(
      z.coerce
        .number()
        .int()
        .min(1024)
        .default(2 * 1024 * 1024 * 1024),
    ),
    GAME_ZIP_MAX_RATIO: unsetIfEmpty(z.coerce.number().min(2).default(200)),
    // where builds and media are kept: 'local' (GAMES_DIR and MEDIA_DIR, the default) or 's3' (a
    // bucket of any S3-compatible service: builds under games/, media under media/)
    STORAGE: unsetIfEmpty(
      z
        .enum(['local', 's3'], {
          error: "must be 'local' (folders under DATA_DIR) or 's3' (a bucket: set S3_BUCKET too)",
        })
        .default('local'),
    ),
    S3_BUCKET: unsetIfEmpty(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
          error: 'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
        })
        .optional(),
    ),
    S3_REGION: optionalString,
    // the SDK's own region setting, used when S3_REGION is unset
    AWS_REGION: optionalString,
    S3_ENDPOINT: unsetIfEmpty(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    S3_FORCE_PATH_STYLE: unsetIfEmpty(
      z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).default('false'),
    ),
    // with STORAGE=s3, objects served are copied to a local folder (default
    // DATA_DIR/storage-cache, one per process) holding at most this many MiB; 0 = no copies
    STORAGE_CACHE_DIR: optionalString,
    STORAGE_CACHE_MAX_MB: unsetIfEmpty(
      z.coerce
        .number({ error: 'must be a whole number of MiB (0 turns the cache off)' })
        .int({ error: 'must be a whole number of MiB (0 turns the cache off)' })
        .min(0, { error: 'must be 0 (no cache) or more MiB' })
        .max(1_048_576, { error: 'must be at most 1048576 MiB (1 TiB)' })
        .default(1024),
    ),
    // a CDN in front of public media and public builds: URLs the site hands out for them use
    // this origin (and path) instead of the site's or the games origin's, with the same path
    MEDIA_PUBLIC_URL: publicUrlSetting,
    GAMES_PUBLIC_URL: publicUrlSetting,
    // read here only to say when one of the pair is missing; the SDK reads them itself
    AWS_ACCESS_KEY_ID: optionalString,
    AWS_SECRET_ACCESS_KEY: optionalString,
    // uploaded media (images, video, audio): where files are stored (default DATA_DIR/media) and
    // the largest upload of each kind in bytes (default 20 MB, 200 MB, 50 MB)
    MEDIA_DIR: optionalString,
    MEDIA_MAX_IMAGE_BYTES: unsetIfEmpty(
      z.coerce
        .number()
        .int()
        .min(1024)
        .default(20 * 1024 * 1024),
    ),
    MEDIA_MAX_VIDEO_BYTES: unsetIfEmpty(
      z.coerce
        .number()
        .int()
        .min(1024)
        .default(200 * 1024 * 1024),
    ),
    MEDIA_MAX_AUDIO_BYTES: unsetIfEmpty(
      z.coerce
        .number()
        .int()
        .min(1024)
        .default(50 * 1024 * 1024),
    ),
    GAME_SERVER_WOLFSCAPE_URL: unsetIfEmpty(z.url().optional()),
    GAME_SERVER_ROCKETGAME_URL: unsetIfEmpty(z.url().optional()),
    // mail: an SMTP server as a URL (smtp://user:pass@host:587, smtps://…:465); unset,
    // every message is kept in the admin's outbox (GET /api/admin/mail) and a line is logged
    SMTP_URL: unsetIfEmpty(
      z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    ),
    // the sender: an address, or a name and an address ("GameDev Portfolio <no-reply@example.com>")
    MAIL_FROM: unsetIfEmpty(
      z
        .string()
        .regex(
          /^(?:[^<>\p{Cc}]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/u,
          'must be an address or "Name <address>"',
        )
        .optional(),
    ),
    LOG_LEVEL: unsetIfEmpty(LogLevel.optional()),
    // json (one object a line) or pretty (readable lines); default pretty in development only
    LOG_FORMAT: unsetIfEmpty(LogFormat.optional()),
    // Prometheus metrics (GET /metrics): on a listener of their own at METRICS_HOST:METRICS_PORT
    // (loopback by default), and/or on the main port for a bearer METRICS_TOKEN; neither = none
    METRICS_PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).optional()),
    METRICS_HOST: unsetIfEmpty(z.string().default('127.0.0.1')),
    METRICS_TOKEN: unsetIfEmpty(z.string().min(16, 'must be at least 16 characters').optional()),
    // connection limits (see lib/connection-limits.ts)
    SOCKETS_PER_ADDRESS: unsetIfEmpty(z.coerce.number().int().min(1).default(20)),
    CONNECTIONS_PER_ADDRESS: unsetIfEmpty(z.coerce.number().int().min(1).default(256)),
    MAX_CONNECTIONS: unsetIfEmpty(z.coerce.number().int().min(1).optional()),
    HEADERS_TIMEOUT_MS: unsetIfEmpty(
      z.coerce.number().int().min(1000).max(120_000).default(10_000),
    ),
    REQUEST_TIMEOUT_MS: unsetIfEmpty(
      z.coerce.number().int().min(1000).max(600_000).default(30_000),
    ),
    SERVE_SOURCE_MAPS: unsetIfEmpty(z.enum(['true', 'false']).optional()),
    // the owner's profiles, linked from every page's footer
    GITHUB_PROFILE_URL: unsetIfEmpty(
      z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
    ),
    LINKEDIN_PROFILE_URL: unsetIfEmpty(
      z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required when NODE_ENV=production',
      });
    }
    // without it the Host header decides what is same-origin, which a DNS-rebinding page controls
    if (env.NODE_ENV === 'production' && !env.PUBLIC_ORIGIN) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_ORIGIN'],
        message:
          "is required when NODE_ENV=production (the site's address as browsers see it, e.g. https://example.com)",
      });
    }
    // refinements run even when a field failed: then that field's own message is enough
    const origins = [env.PUBLIC_ORIGIN, env.GAMES_ORIGIN].filter((origin) => origin !== undefined);
    const sameSite = origins.every((origin) => URL.canParse(origin))
      ? gamesOriginSameSiteProblem(env)
      : undefined;
    if (env.NODE_ENV === 'production' && sameSite && env.GAMES_ORIGIN_ALLOW_SAME_SITE !== 'true') {
      ctx.addIssue({
        code: 'custom',
        path: ['GAMES_ORIGIN'],
        message: `${sameSite}. Serve games from another domain (e.g. PUBLIC_ORIGIN=https://example.com, GAMES_ORIGIN=https://example-games.net), or set GAMES_ORIGIN_ALLOW_SAME_SITE=true to start anyway`,
      });
    }
    const stripeKeys = [
      env.STRIPE_SECRET_KEY,
      env.STRIPE_PUBLISHABLE_KEY,
      env.STRIPE_WEBHOOK_SECRET,
      env.STRIPE_PRICE_ID,
    ];
    if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together',
      });
    }
    const stripeMode = (key: string | undefined) => /_(test|live)_/.exec(key ?? '')?.[1];
    if (
      env.STRIPE_SECRET_KEY &&
      env.STRIPE_PUBLISHABLE_KEY &&
      stripeMode(env.STRIPE_SECRET_KEY) !== stripeMode(env.STRIPE_PUBLISHABLE_KEY)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_PUBLISHABLE_KEY'],
        message: 'must be of the same mode (test or live) as STRIPE_SECRET_KEY',
      });
    }
    if (env.REQUEST_TIMEOUT_MS <= env.HEADERS_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['REQUEST_TIMEOUT_MS'],
        message: 'must be longer than HEADERS_TIMEOUT_MS',
      });
    }
    addStorageIssues(env, ctx);
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** What STORAGE=s3 needs besides the settings' own checks. */
function addStorageIssues(
  env: Pick<
    Env,
    | 'STORAGE'
    | 'S3_BUCKET'
    | 'S3_REGION'
    | 'AWS_REGION'
    | 'AWS_ACCESS_KEY_ID'
    | 'AWS_SECRET_ACCESS_KEY'
  >,
  ctx: z.RefinementCtx,
): void {
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.AWS_ACCESS_KEY_ID ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'],
      message: 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together',
    });
  }
  if (env.STORAGE !== 's3') {
    return;
  }
  if (!env.S3_BUCKET) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_BUCKET'],
      message: 'is required when STORAGE=s3 (the bucket that keeps builds and media)',
    });
  }
  if (!env.S3_REGION && !env.AWS_REGION) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_REGION'],
      message:
        "is required when STORAGE=s3 (the bucket's region, e.g. eu-west-1; a service without regions takes any, e.g. us-east-1)",
    });
  }
}

/**
 * Why games would share the site's cookie jar, or undefined when they are on another site.
 * Browsers keep cookies per host name, not per port, and a page may set cookies for its whole
 * registrable domain: a game on the site's domain can fill the jar until the browser evicts the
 * site's HttpOnly session cookie, then set its own (the attacker's session). Unset, the games
 * origin is the other loopback name, which is another jar only while the site is on loopback.
 */
function gamesOriginSameSiteProblem(
  env: Pick<Env, 'HOST' | 'PUBLIC_ORIGIN' | 'GAMES_ORIGIN'>,
): string | undefined {
  if (env.GAMES_ORIGIN) {
    return env.PUBLIC_ORIGIN && isSameSite(env.GAMES_ORIGIN, env.PUBLIC_ORIGIN)
      ? `GAMES_ORIGIN (${env.GAMES_ORIGIN}) is on the same site as PUBLIC_ORIGIN (${env.PUBLIC_ORIGIN}): browsers share cookies across one registrable domain and its ports, so a game could sign its players into another account`
      : undefined;
  }
  const bindsLoopback = isLoopbackHostName(env.HOST);
  const isPublicLoopback = env.PUBLIC_ORIGIN
    ? isLoopbackHostName(new URL(env.PUBLIC_ORIGIN).hostname)
    : true;
  return bindsLoopback && isPublicLoopback
    ? undefined
    : `GAMES_ORIGIN is unset and the site is not on a loopback name (HOST=${env.HOST}, PUBLIC_ORIGIN=${env.PUBLIC_ORIGIN ?? 'unset'}): games would be served on the site's own host name, whose cookies they share, so a game could sign its players into another account`;
}

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of the keys and channels presence and Socket.IO use in Redis; processes that share a view share it. */
  redisPrefix: string;
  sessionSecret: string;
  /**
   * The origin allowed to make state-changing requests and open sockets (required in production);
   * unset = the request's own origin, on a loopback host name only.
   */
  publicOrigin: string | undefined;
  trustProxy: string | undefined;
  admin: { username: string; password: string } | undefined;
  /**
   * ADMIN_REQUIRE_2FA: an admin without two-factor sign-in gets a session that may only set it up
   * (and read who is signed in, sign out) until it is on. Default: on in production.
   */
  adminRequireTwoFactor: boolean;
  /** Stripe Billing; undefined = payments are not configured. */
  stripe: StripeConfig | undefined;
  webDistDir: string | undefined;
  /** Registrations allowed per client address per hour. */
  registerLimitPerHour: number;
  /** Login attempts allowed per client address per 5 minutes. */
  loginLimitPer5Minutes: number;
  /** C++ runs (POST /run-code) allowed per client address per minute. */
  runCodeLimitPerMinute: number;
  /** The C++ backend: the native sandbox, Clang in WebAssembly, or auto (native if it works). */
  runCodeBackend: 'auto' | 'native' | 'wasm';
  /** Seconds one address's or user's programs may run per minute (sleeping counts). */
  runCodeSlotSecondsPerMinute: number;
  /** CPU seconds one address's or user's compiles may use per minute. */
  runCodeCompileSecondsPerMinute: number;
  runCodeCompileWallSeconds: number;
  /** Days of site analytics events kept (ANALYTICS_RETENTION_DAYS). */
  analyticsRetentionDays: number;
  /** Bytes of analytics segments kept in memory (ANALYTICS_SEGMENT_CACHE_MB). */
  analyticsSegmentCacheBytes: number;
  /** The games origin and where builds live. */
  gamesHost: GamesHostConfig;
  /** Uploaded media: the folder and the largest upload of each kind. */
  media: MediaConfig;
  /** Where builds and media are kept: the folders above, or a bucket. */
  storage: StorageConfig;
  /** Health URL per multiplayer server type; none = the built-in demo server, reported up. */
  gameServerHealthUrls: Record<string, string | undefined>;
  /** LOG_LEVEL (the logger reads it itself at load; kept here for what the process reports). */
  logLevel: LogSettings['level'];
  /** Prometheus metrics: a listener of their own and/or a bearer token on the main port. */
  metrics: MetricsConfig;
  /** Settings the web app reads at run time (footer links), injected into every page. */
  siteConfig: SiteConfig;
  /** Outgoing mail. */
  mail: MailConfig;
  /** What one client may hold open, and how long a request may take to arrive. */
  connections: ConnectionLimits;
  /** Whether the web app's source maps are served (default: not in production). */
  serveSourceMaps: boolean;
}

export interface MetricsConfig {
  /** METRICS_PORT: a listener serving only /metrics (0 = any free port); undefined = none. */
  port: number | undefined;
  /** METRICS_HOST: where that listener binds (default loopback). */
  host: string;
  /** METRICS_TOKEN: /metrics on the main port for `Authorization: Bearer <token>`; undefined = refused there. */
  token: string | undefined;
}

export interface MailConfig {
  /** SMTP_URL; undefined = messages are kept in the admin's outbox. */
  smtpUrl: string | undefined;
  /** MAIL_FROM; undefined = the site's name at no-reply@ the public origin's host. */
  from: string | undefined;
}

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** The local copies of served objects; undefined = none (STORAGE_CACHE_MAX_MB=0). */
      cache?: StorageCacheConfig | undefined;
    };

export interface StorageCacheConfig {
  /** STORAGE_CACHE_DIR: emptied at start, so one folder per process. */
  dir: string;
  maxBytes: number;
}

/** The storage settings, once the schema has checked them. */
function storageConfigOf(env: Env, dataDir: string): StorageConfig {
  const region = env.S3_REGION ?? env.AWS_REGION;
  if (env.STORAGE !== 's3' || !env.S3_BUCKET || !region) {
    return { kind: 'local' };
  }
  const cacheDir = env.STORAGE_CACHE_DIR
    ? resolveSettingPath(env.STORAGE_CACHE_DIR)
    : path.join(dataDir, 'storage-cache');
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    region,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    cache:
      env.STORAGE_CACHE_MAX_MB > 0
        ? { dir: cacheDir, maxBytes: env.STORAGE_CACHE_MAX_MB * 1024 * 1024 }
        : undefined,
  };
}

export interface GamesHostConfig {
  /**
   * GAMES_ORIGIN: the public origin of the games host; unset = this process on the other
   * loopback name than the site's (gamesOriginFor).
   */
  origin: string | undefined;
  /**
   * Why games share the site's cookie jar (same registrable domain, or unset GAMES_ORIGIN off
   * loopback); undefined when they do not. Production refuses to start with it unless
   * GAMES_ORIGIN_ALLOW_SAME_SITE=true; the start logs it as a warning otherwise.
   */
  sameSiteProblem?: string;
  /** The port this process serves the games origin on. */
  port: number;
  /** GAMES_PUBLIC_URL: a CDN for public games' builds (play URLs); undefined = the games origin. */
  publicUrl?: string | undefined;
  /** Where builds are stored: <dir>/<gameId>/<version>/… */
  dir: string;
  uploadMaxBytes: number;
  zipMaxFiles: number;
  zipMaxUnpackedBytes: number;
  /** The largest unpacked/compressed ratio an upload may have (zip bombs). */
  zipMaxRatio: number;
}

export interface MediaConfig {
  /** MEDIA_DIR: stored files, flat, named by content hash (back it up with the database). */
  dir: string;
  /** MEDIA_MAX_IMAGE_BYTES, MEDIA_MAX_VIDEO_BYTES, MEDIA_MAX_AUDIO_BYTES. */
  limits: { image: number; video: number; audio: number };
  /** MEDIA_PUBLIC_URL: a CDN for /media/ (URLs handed out); undefined = the site's /media/. */
  publicUrl?: string | undefined;
}

/**
 * The default total connection cap: 80% of the process's open-file limit (the rest is for the
 * database, Redis, files and logs), 4096 where the limit cannot be read.
 */
export function defaultMaxConnections(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    if (soft) {
      return Math.max(64, Math.floor(Number(soft) * 0.8));
    }
  } catch {
    // not Linux: fall through
  }
  return 4096;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The recurring price subscriptions are made on ($10.00 every 3 months). */
  priceId: string;
  /** Another API address (stripe-mock, a test's fake); undefined = Stripe's own. */
  apiUrl: string | undefined;
}

export class ConfigError extends Error {}

/** Reads a secret kept in the data folder, making one on first use (development only). */
function loadOrCreateSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) {
      return existing;
    }
  } catch {
    // no secret yet: make one below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** DATA_DIR as loadConfig resolves it, without the rest (restore places a secret there first). */
export function dataDirFrom(source: NodeJS.ProcessEnv = process.env): string {
  return resolveSettingPath(source.DATA_DIR || './data');
}

/** Parses and validates the environment once; throws ConfigError with every problem listed. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = resolveSettingPath(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    sessionSecret: env.SESSION_SECRET ?? loadOrCreateSessionSecret(dataDir),
    publicOrigin: env.PUBLIC_ORIGIN,
    trustProxy: env.TRUST_PROXY,
    admin:
      env.ADMIN_USERNAME && env.ADMIN_PASSWORD
        ? { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD }
        : undefined,
    adminRequireTwoFactor: env.ADMIN_REQUIRE_2FA
      ? env.ADMIN_REQUIRE_2FA === 'true'
      : env.NODE_ENV === 'production',
    stripe:
      env.STRIPE_SECRET_KEY &&
      env.STRIPE_PUBLISHABLE_KEY &&
      env.STRIPE_WEBHOOK_SECRET &&
      env.STRIPE_PRICE_ID
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            priceId: env.STRIPE_PRICE_ID,
            apiUrl: env.STRIPE_API_URL,
          }
        : undefined,
    webDistDir: env.WEB_DIST_DIR === undefined ? undefined : resolveSettingPath(env.WEB_DIST_DIR),
    registerLimitPerHour: env.REGISTER_LIMIT_PER_HOUR,
    loginLimitPer5Minutes: env.LOGIN_LIMIT_PER_5_MINUTES,
    runCodeLimitPerMinute: env.RUN_CODE_LIMIT_PER_MINUTE,
    runCodeBackend: env.RUN_CODE_BACKEND,
    runCodeSlotSecondsPerMinute: env.RUN_CODE_SLOT_SECONDS_PER_MINUTE,
    runCodeCompileSecondsPerMinute: env.RUN_CODE_COMPILE_SECONDS_PER_MINUTE,
    runCodeCompileWallSeconds: env.RUN_CODE_COMPILE_WALL_SECONDS,
    analyticsRetentionDays: env.ANALYTICS_RETENTION_DAYS,
    analyticsSegmentCacheBytes: env.ANALYTICS_SEGMENT_CACHE_MB * 1024 * 1024,
    gamesHost: {
      origin: env.GAMES_ORIGIN,
      sameSiteProblem: gamesOriginSameSiteProblem(env),
      port: env.GAMES_PORT ?? (env.PORT === 0 ? 0 : env.PORT + 1),
      publicUrl: env.GAMES_PUBLIC_URL,
      dir: env.GAMES_DIR ? resolveSettingPath(env.GAMES_DIR) : path.join(dataDir, 'games'),
      uploadMaxBytes: env.GAME_UPLOAD_MAX_BYTES,
      zipMaxFiles: env.GAME_ZIP_MAX_FILES,
      zipMaxUnpackedBytes: env.GAME_ZIP_MAX_UNPACKED_BYTES,
      zipMaxRatio: env.GAME_ZIP_MAX_RATIO,
    },
    storage: storageConfigOf(env, dataDir),
    media: {
      dir: env.MEDIA_DIR ? resolveSettingPath(env.MEDIA_DIR) : path.join(dataDir, 'media'),
      publicUrl: env.MEDIA_PUBLIC_URL,
      limits: {
        image: env.MEDIA_MAX_IMAGE_BYTES,
        video: env.MEDIA_MAX_VIDEO_BYTES,
        audio: env.MEDIA_MAX_AUDIO_BYTES,
      },
    },
    gameServerHealthUrls: {
      wolfscape: env.GAME_SERVER_WOLFSCAPE_URL,
      rocketGame: env.GAME_SERVER_ROCKETGAME_URL,
    },
    logLevel: readLogSettings(source).level,
    metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST, token: env.METRICS_TOKEN },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    connections: {
      socketsPerAddress: env.SOCKETS_PER_ADDRESS,
      connectionsPerAddress: env.CONNECTIONS_PER_ADDRESS,
      maxConnections: env.MAX_CONNECTIONS ?? defaultMaxConnections(),
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    },
    serveSourceMaps: env.SERVE_SOURCE_MAPS
      ? env.SERVE_SOURCE_MAPS === 'true'
      : env.NODE_ENV !== 'production',
    siteConfig: {
      githubUrl: env.GITHUB_PROFILE_URL ?? DEFAULT_SITE_CONFIG.githubUrl,
      linkedinUrl: env.LINKEDIN_PROFILE_URL ?? DEFAULT_SITE_CONFIG.linkedinUrl,
    },
  };
}
