import { createHmac } from 'node:crypto';

import { gt } from 'drizzle-orm';

import type { CurrentUser } from '@portfolio/types';

import type { Db } from '../../../db/client.js';
import { sessions } from '../../../db/schema.js';
import type { InvalidationBus } from '../../../lib/invalidation-bus.js';
import { moduleLogger } from '../../../lib/logger.js';
import { memoizeBounded, setBounded } from '../../../lib/memoize.js';
import { createTruncatedMac } from '../../../lib/truncated-mac.js';

const log = moduleLogger('sessions');

export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_TIMEOUTS: SessionTimeouts = {
  idleMs: 7 * 24 * 60 * 60 * 1000,
  absoluteMs: 30 * 24 * 60 * 60 * 1000,
};

/** How long a resolved session is trusted from memory before it is read again. */
export const CACHE_TTL_MS = 10 * 60 * 1000;
export const CACHE_MAX_ENTRIES = 100_000;
/**
 * While the invalidation bus cannot hear other processes (Redis down), a cached session is read
 * again after this long, so a logout elsewhere takes effect within seconds even during an outage.
 */
export const CACHE_TTL_WHILE_DISCONNECTED_MS = 5000;
/** Tokens with a valid signature but no session (ended, expired) remembered so they cost no query. */
const UNKNOWN_TTL_MS = 60_000;
const UNKNOWN_MAX_ENTRIES = 10_000;
/** Bytes of HMAC that sign a token: a forged cookie is refused without a query. */
const TOKEN_MAC_BYTES = 16;
/** Idle expiry is pushed forward at most this often per session (batched). */
export const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface ResolvedSession {
  idHash: string;
  user: CurrentUser;
  /** The user has two-factor sign-in on (ADMIN_REQUIRE_2FA asks it of admins). */
  hasTwoFactor: boolean;
  /**
   * ADMIN_REQUIRE_2FA: an admin without two-factor sign-in, whose `user.role` is then 'user'
   * (see isTwoFactorSetupPendingFor). Only the setup's own routes read this.
   */
  twoFactorSetupPending: boolean;
  expiresAt: number;
  absoluteExpiresAt: number;
}

export interface CacheEntry extends Omit<ResolvedSession, 'twoFactorSetupPending'> {
  cachedAt: number;
  touchedAt: number;
}

export interface SessionDeps {
  db: Db;
  secret: string;
  bus: InvalidationBus;
  timeouts?: SessionTimeouts;
  now?: () => number;
  /** ADMIN_REQUIRE_2FA */
  isAdminTwoFactorRequired?: boolean;
}

/**
 * What every session command and query works with: the database, the clock and the in-memory
 * state that keeps a heartbeat from costing a query (resolved sessions, tokens known to match
 * nothing, pending idle-expiry extensions). One object per service, so the heartbeat path
 * allocates nothing for it.
 */
export interface SessionContext {
  db: Db;
  bus: InvalidationBus;
  timeouts: SessionTimeouts;
  now: () => number;
  isAdminTwoFactorRequired: boolean;
  cache: Map<string, CacheEntry>;
  /** Signed tokens that matched no session, oldest first (insertion order): a small LRU. */
  unknown: Map<string, number>;
  pendingTouches: Set<string>;
  counters: { queries: number; writes: number };
  /** The id hash of a token (memoized: every request with a cookie hashes its token). */
  hash: (token: string) => string;
  mac: ReturnType<typeof createTruncatedMac>;
  /**
   * Tokens whose MAC matched: a tab sends the same cookie every 30 s, and checking it was an
   * eighth of a heartbeat's cost. Only matches are kept, so random cookies evict nothing.
   */
  signedTokens: Map<string, true>;
  /** Id hashes of the sessions that existed at startup (set once loaded; see isSigned). */
  legacy: Set<string> | undefined;
  legacyLoaded: Promise<void>;
}

/** The context of one session service: loads the startup sessions and listens on the bus. */
export function createSessionContext(deps: SessionDeps): SessionContext {
  const now = deps.now ?? Date.now;
  const ctx: SessionContext = {
    db: deps.db,
    bus: deps.bus,
    timeouts: deps.timeouts ?? DEFAULT_SESSION_TIMEOUTS,
    now,
    isAdminTwoFactorRequired: deps.isAdminTwoFactorRequired === true,
    cache: new Map(),
    unknown: new Map(),
    pendingTouches: new Set(),
    counters: { queries: 0, writes: 0 },
    hash: memoizeBounded(
      (token) => createHmac('sha256', deps.secret).update(token).digest('base64url'),
      CACHE_MAX_ENTRIES,
    ),
    mac: createTruncatedMac(deps.secret, 'session-token', TOKEN_MAC_BYTES),
    signedTokens: new Map(),
    legacy: undefined,
    legacyLoaded: Promise.resolve(),
  };
  ctx.legacyLoaded = loadLegacy(ctx);

  // messages may have been missed while Redis was away: every cached session is read again
  ctx.bus.onResync?.(() => ctx.cache.clear());

  ctx.bus.subscribe((userId) => {
    for (const [key, entry] of ctx.cache) {
      if (entry.user.id === userId) {
        ctx.cache.delete(key);
      }
    }
  });
  return ctx;
}

async function loadLegacy(ctx: SessionContext): Promise<void> {
  try {
    const rows = await ctx.db
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(gt(sessions.expiresAt, new Date(ctx.now())));
    ctx.legacy = new Set(rows.map((row) => row.idHash));
  } catch (error) {
    // database down at startup: unsigned tokens are then simply refused
    log.warn({ err: error }, 'could not load existing sessions');
    ctx.legacy = new Set();
  }
}

/**
 * Tokens are `<32 random bytes>.<HMAC of them>` (base64url). A cookie whose signature does not
 * match was not made here: no query. Tokens from before signing (no dot) are looked up only
 * when their session existed at startup (`legacy`), so random unsigned cookies cost no query
 * either; they end with those sessions (30 days at most).
 */
export function isSigned(ctx: SessionContext, token: string): boolean {
  if (ctx.signedTokens.has(token)) {
    return true;
  }
  const dot = token.indexOf('.');
  if (dot === -1) {
    return false;
  }
  const isMatch = ctx.mac.matches(token.slice(0, dot), token.slice(dot + 1));
  if (isMatch) {
    setBounded(ctx.signedTokens, token, true, CACHE_MAX_ENTRIES);
  }
  return isMatch;
}

export function rememberUnknown(ctx: SessionContext, idHash: string): void {
  setBounded(ctx.unknown, idHash, ctx.now() + UNKNOWN_TTL_MS, UNKNOWN_MAX_ENTRIES);
}

export function isKnownUnknown(ctx: SessionContext, idHash: string): boolean {
  const until = ctx.unknown.get(idHash);
  if (until === undefined) {
    return false;
  }
  if (until <= ctx.now()) {
    ctx.unknown.delete(idHash);
    return false;
  }
  return true;
}
