import { createHmac, randomBytes } from 'node:crypto';

import { and, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';

import type { CurrentUser } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { sessions, users, userTwoFactor } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { memoizeBounded, setBounded } from '../../lib/memoize.js';
import { createTruncatedMac } from '../../lib/truncated-mac.js';
import { type DeviceCookieSigner, createDeviceCookieSigner } from './device-cookie.js';
import { withTwoFactorRequirement } from '../../access/policies.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('sessions');

export const SESSION_COOKIE = 'sid';

export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_TIMEOUTS: SessionTimeouts = {
  idleMs: 7 * 24 * 60 * 60 * 1000,
  absoluteMs: 30 * 24 * 60 * 60 * 1000,
};

/** How long a resolved session is trusted from memory before it is read again. */
const CACHE_TTL_MS = 10 * 60 * 1000;
const CACHE_MAX_ENTRIES = 100_000;
/**
 * While the invalidation bus cannot hear other processes (Redis down), a cached session is read
 * again after this long, so a logout elsewhere takes effect within seconds even during an outage.
 */
const CACHE_TTL_WHILE_DISCONNECTED_MS = 5000;
/** Tokens with a valid signature but no session (ended, expired) remembered so they cost no query. */
const UNKNOWN_TTL_MS = 60_000;
const UNKNOWN_MAX_ENTRIES = 10_000;
/** Bytes of HMAC that sign a token: a forged cookie is refused without a query. */
const TOKEN_MAC_BYTES = 16;
/** Idle expiry is pushed forward at most this often per session (batched). */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface ResolvedSession {
  idHash: string;
  user: CurrentUser;
  /** The user has two-factor sign-in on (ADMIN_REQUIRE_2FA asks it of admins). */
  hasTwoFactor: boolean;
  /**
   * ADMIN_REQUIRE_2FA: an admin without two-factor sign-in, whose `user.role` is then 'user'
   * (see withTwoFactorRequirement). Only the setup's own routes read this.
   */
  twoFactorSetupPending: boolean;
  expiresAt: number;
  absoluteExpiresAt: number;
}

interface CacheEntry extends Omit<ResolvedSession, 'twoFactorSetupPending'> {
  cachedAt: number;
  touchedAt: number;
}

export interface SessionService {
  /** Creates a session and returns the token for the cookie. */
  create(userId: string): Promise<{ token: string; expiresAt: Date }>;
  /** The session behind a cookie token, or null. Served from memory while fresh: no query per request. */
  resolve(token: string): Promise<ResolvedSession | null>;
  /**
   * The session with this id hash (ResolvedSession.idHash), or null: how a play ticket, which
   * names its session without carrying its token, is checked again while the player plays.
   */
  resolveIdHash(idHash: string): Promise<ResolvedSession | null>;
  destroy(token: string): Promise<void>;
  /** Ends every session of a user but one (a password change), in every process. */
  destroyOthers(userId: string, keepIdHash: string): Promise<number>;
  /** Drops every cached session of a user (role change, deletion) in every process. */
  invalidateUser(userId: string): void;
  /** Writes pending idle-expiry extensions; called on a timer and at shutdown. */
  flush(): Promise<void>;
  stats(): { queries: number; writes: number };
  /** Signs and checks device cookies (login throttling), with the same secret. */
  devices: DeviceCookieSigner;
}

/**
 * Ends every session of a user by deleting the rows (a password reset from the CLI). Processes
 * that hold one in memory drop it on the invalidation bus, or at the latest after the cache TTL.
 * @returns how many sessions were ended
 */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}

export function createSessionService(deps: {
  db: Db;
  secret: string;
  bus: InvalidationBus;
  timeouts?: SessionTimeouts;
  now?: () => number;
  /** ADMIN_REQUIRE_2FA */
  isAdminTwoFactorRequired?: boolean;
}): SessionService {
  const { db, bus } = deps;
  const timeouts = deps.timeouts ?? DEFAULT_SESSION_TIMEOUTS;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();
  // signed tokens that matched no session, oldest first (insertion order): a small LRU
  const unknown = new Map<string, number>();
  const pendingTouches = new Set<string>();
  const counters = { queries: 0, writes: 0 };

  // every request with a cookie hashes its token: remember the hashes of tokens in use
  const hash = memoizeBounded(
    (token) => createHmac('sha256', deps.secret).update(token).digest('base64url'),
    CACHE_MAX_ENTRIES,
  );

  const mac = createTruncatedMac(deps.secret, 'session-token', TOKEN_MAC_BYTES);
  // tokens whose MAC matched: a tab sends the same cookie every 30 s, and checking it was an
  // eighth of a heartbeat's cost. Only matches are kept, so random cookies evict nothing.
  const signedTokens = new Map<string, true>();

  /**
   * Tokens are `<32 random bytes>.<HMAC of them>` (base64url). A cookie whose signature does not
   * match was not made here: no query. Tokens from before signing (no dot) are looked up only
   * when their session existed at startup (`legacy`), so random unsigned cookies cost no query
   * either; they end with those sessions (30 days at most).
   */
  function isSigned(token: string): boolean {
    if (signedTokens.has(token)) {
      return true;
    }
    const dot = token.indexOf('.');
    if (dot === -1) {
      return false;
    }
    const isMatch = mac.matches(token.slice(0, dot), token.slice(dot + 1));
    if (isMatch) {
      setBounded(signedTokens, token, true, CACHE_MAX_ENTRIES);
    }
    return isMatch;
  }

  let legacy: Set<string> | undefined;
  const legacyLoaded = (async () => {
    try {
      const rows = await db
        .select({ idHash: sessions.idHash })
        .from(sessions)
        .where(gt(sessions.expiresAt, new Date(now())));
      legacy = new Set(rows.map((row) => row.idHash));
    } catch (error) {
      // database down at startup: unsigned tokens are then simply refused
      log.warn({ err: error }, 'could not load existing sessions');
      legacy = new Set();
    }
  })();

  function rememberUnknown(idHash: string) {
    setBounded(unknown, idHash, now() + UNKNOWN_TTL_MS, UNKNOWN_MAX_ENTRIES);
  }

  function isKnownUnknown(idHash: string): boolean {
    const until = unknown.get(idHash);
    if (until === undefined) {
      return false;
    }
    if (until <= now()) {
      unknown.delete(idHash);
      return false;
    }
    return true;
  }

  // messages may have been missed while Redis was away: every cached session is read again
  bus.onResync?.(() => cache.clear());

  bus.subscribe((userId) => {
    for (const [key, entry] of cache) {
      if (entry.user.id === userId) {
        cache.delete(key);
      }
    }
  });

  function remember(entry: CacheEntry) {
    setBounded(cache, entry.idHash, entry, CACHE_MAX_ENTRIES);
  }

  async function load(idHash: string): Promise<CacheEntry | null> {
    counters.queries++;
    const time = new Date(now());
    const [row] = await db
      .select({
        idHash: sessions.idHash,
        expiresAt: sessions.expiresAt,
        absoluteExpiresAt: sessions.absoluteExpiresAt,
        id: users.id,
        username: users.username,
        role: users.role,
        twoFactorEnabledAt: userTwoFactor.enabledAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(userTwoFactor, eq(userTwoFactor.userId, sessions.userId))
      .where(
        and(
          eq(sessions.idHash, idHash),
          gt(sessions.expiresAt, time),
          gt(sessions.absoluteExpiresAt, time),
        ),
      )
      .limit(1);
    if (!row) {
      return null;
    }
    return {
      idHash: row.idHash,
      user: { id: row.id, username: row.username, role: row.role },
      hasTwoFactor: row.twoFactorEnabledAt !== null,
      expiresAt: row.expiresAt.getTime(),
      absoluteExpiresAt: row.absoluteExpiresAt.getTime(),
      cachedAt: now(),
      // when the stored idle expiry was last pushed: a session reloaded after the cache expired is
      // still extended if it has not been for a while (using now() here never extended it)
      touchedAt: row.expiresAt.getTime() - timeouts.idleMs,
    };
  }

  /** The session with this id hash, from memory while fresh (see resolve). */
  async function lookUp(idHash: string): Promise<ResolvedSession | null> {
    const time = now();
    let entry = cache.get(idHash);
    const cacheTtl = bus.isConnected?.() === false ? CACHE_TTL_WHILE_DISCONNECTED_MS : CACHE_TTL_MS;
    // a cached copy that looks idle-expired is read again: another process may have extended it
    if (
      entry &&
      (time - entry.cachedAt > cacheTtl ||
        entry.expiresAt <= time ||
        entry.absoluteExpiresAt <= time)
    ) {
      cache.delete(idHash);
      entry = undefined;
    }
    if (!entry) {
      if (isKnownUnknown(idHash)) {
        return null;
      }
      const loaded = await load(idHash);
      if (!loaded) {
        legacy?.delete(idHash);
        rememberUnknown(idHash);
        return null;
      }
      entry = loaded;
      remember(entry);
    }
    if (time - entry.touchedAt >= TOUCH_INTERVAL_MS) {
      entry.touchedAt = time;
      const extended = Math.min(time + timeouts.idleMs, entry.absoluteExpiresAt);
      if (extended > entry.expiresAt) {
        entry.expiresAt = extended;
        pendingTouches.add(idHash);
      }
    }
    return withTwoFactorRequirement(
      {
        idHash: entry.idHash,
        user: entry.user,
        hasTwoFactor: entry.hasTwoFactor,
        expiresAt: entry.expiresAt,
        absoluteExpiresAt: entry.absoluteExpiresAt,
      },
      deps.isAdminTwoFactorRequired === true,
    );
  }

  return {
    async create(userId) {
      const random = randomBytes(32).toString('base64url');
      const token = `${random}.${mac.sign(random)}`;
      const time = now();
      const absoluteExpiresAt = new Date(time + timeouts.absoluteMs);
      const expiresAt = new Date(Math.min(time + timeouts.idleMs, absoluteExpiresAt.getTime()));
      counters.writes++;
      await db
        .insert(sessions)
        .values({ idHash: hash(token), userId, expiresAt, absoluteExpiresAt });
      // an occasional sweep keeps the table small without a separate job
      if (Math.random() < 0.02) {
        counters.writes++;
        await db.delete(sessions).where(lt(sessions.expiresAt, new Date(time)));
      }
      return { token, expiresAt: absoluteExpiresAt };
    },

    async resolve(token) {
      if (!token || token.length > 128) {
        return null;
      }
      const signed = isSigned(token);
      if (!signed && token.includes('.')) {
        return null;
      }
      // an unsigned token can only be one of the sessions that existed at startup; when there
      // are none left (any deployment made after signing began), it is refused right here
      if (!signed && legacy?.size === 0) {
        return null;
      }
      const idHash = hash(token);
      if (!signed) {
        await legacyLoaded;
        if (!legacy?.has(idHash)) {
          return null;
        }
      }
      return lookUp(idHash);
    },

    resolveIdHash(idHash) {
      if (idHash.length > 128) {
        return Promise.resolve(null);
      }
      return lookUp(idHash);
    },

    async destroy(token) {
      const idHash = hash(token);
      cache.delete(idHash);
      pendingTouches.delete(idHash);
      legacy?.delete(idHash);
      rememberUnknown(idHash);
      counters.writes++;
      const deleted = await db
        .delete(sessions)
        .where(eq(sessions.idHash, idHash))
        .returning({ userId: sessions.userId });
      // other processes may hold this session in memory even when this one does not
      for (const { userId } of deleted) {
        bus.publish(userId);
      }
    },

    async destroyOthers(userId, keepIdHash) {
      counters.writes++;
      const deleted = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
        .returning({ idHash: sessions.idHash });
      for (const { idHash } of deleted) {
        pendingTouches.delete(idHash);
      }
      // every process drops its cached copies; the kept session is simply read again
      bus.publish(userId);
      return deleted.length;
    },

    invalidateUser(userId) {
      bus.publish(userId);
    },

    async flush() {
      if (pendingTouches.size === 0) {
        return;
      }
      const ids = [...pendingTouches];
      pendingTouches.clear();
      counters.writes++;
      // one statement for every session used since the last flush; never past the absolute expiry,
      // never shortened. The service's clock, not the database's: load() compares with it too.
      const extended = new Date(now() + timeouts.idleMs).toISOString();
      await db
        .update(sessions)
        .set({
          expiresAt: sql`greatest(${sessions.expiresAt}, least(${extended}::timestamptz, ${sessions.absoluteExpiresAt}))`,
        })
        .where(inArray(sessions.idHash, ids));
    },

    stats: () => ({ ...counters }),
    devices: createDeviceCookieSigner(deps.secret, now),
  };
}
