import { and, eq, gt } from 'drizzle-orm';

import { sessions, users, userTwoFactor } from '../../../../db/schema.js';
import { isTwoFactorSetupPendingFor } from '../../../../access/policies.js';
import {
  CACHE_MAX_ENTRIES,
  CACHE_TTL_MS,
  CACHE_TTL_WHILE_DISCONNECTED_MS,
  type CacheEntry,
  isKnownUnknown,
  rememberUnknown,
  type ResolvedSession,
  type SessionContext,
  TOUCH_INTERVAL_MS,
} from '../context.js';
import { setBounded } from '../../../../lib/memoize.js';

async function load(ctx: SessionContext, idHash: string): Promise<CacheEntry | null> {
  const { db, now, timeouts } = ctx;
  ctx.counters.queries++;
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

/**
 * The session with this id hash when memory can answer: the session, null (known to be unknown),
 * or undefined when it must be read from the database (lookUp). No promise: the heartbeat's path.
 */
export function lookUpCached(
  ctx: SessionContext,
  idHash: string,
): ResolvedSession | null | undefined {
  const { cache } = ctx;
  const time = ctx.now();
  const entry = cache.get(idHash);
  if (!entry) {
    return isKnownUnknown(ctx, idHash) ? null : undefined;
  }
  const cacheTtl =
    ctx.bus.isConnected?.() === false ? CACHE_TTL_WHILE_DISCONNECTED_MS : CACHE_TTL_MS;
  // a cached copy that looks idle-expired is read again: another process may have extended it
  if (
    time - entry.cachedAt > cacheTtl ||
    entry.expiresAt <= time ||
    entry.absoluteExpiresAt <= time
  ) {
    cache.delete(idHash);
    return isKnownUnknown(ctx, idHash) ? null : undefined;
  }
  return present(ctx, entry, time);
}

/** The session with this id hash, from memory while fresh (see SessionService.resolve). */
export async function lookUp(ctx: SessionContext, idHash: string): Promise<ResolvedSession | null> {
  const cached = lookUpCached(ctx, idHash);
  if (cached !== undefined) {
    return cached;
  }
  const loaded = await load(ctx, idHash);
  if (!loaded) {
    ctx.legacy?.delete(idHash);
    rememberUnknown(ctx, idHash);
    return null;
  }
  setBounded(ctx.cache, loaded.idHash, loaded, CACHE_MAX_ENTRIES);
  return present(ctx, loaded, ctx.now());
}

/** Extends the idle expiry when due, and answers one object (the heartbeat's path). */
function present(ctx: SessionContext, entry: CacheEntry, time: number): ResolvedSession {
  if (time - entry.touchedAt >= TOUCH_INTERVAL_MS) {
    entry.touchedAt = time;
    const extended = Math.min(time + ctx.timeouts.idleMs, entry.absoluteExpiresAt);
    if (extended > entry.expiresAt) {
      entry.expiresAt = extended;
      ctx.pendingTouches.add(entry.idHash);
    }
  }
  // the rule of isTwoFactorSetupPendingFor, inline
  const isPending = isTwoFactorSetupPendingFor(entry, ctx.isAdminTwoFactorRequired);
  return {
    idHash: entry.idHash,
    user: isPending ? { ...entry.user, role: 'user' } : entry.user,
    hasTwoFactor: entry.hasTwoFactor,
    expiresAt: entry.expiresAt,
    absoluteExpiresAt: entry.absoluteExpiresAt,
    twoFactorSetupPending: isPending,
  };
}
