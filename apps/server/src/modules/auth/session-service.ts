import { eq } from 'drizzle-orm';

import type { Db } from '../../db/client.js';
import { sessions } from '../../db/schema.js';
import { type DeviceCookieSigner, createDeviceCookieSigner } from './device-cookie.js';
import { createSession } from './sessions/commands/create-session.js';
import { destroyOtherSessions } from './sessions/commands/destroy-other-sessions.js';
import { destroySession } from './sessions/commands/destroy-session.js';
import { flushTouches } from './sessions/commands/flush-touches.js';
import {
  createSessionContext,
  type ResolvedSession,
  type SessionDeps,
} from './sessions/context.js';
import { resolveIdHash, resolveToken, resolveTokenNow } from './sessions/queries/resolve.js';

export {
  DEFAULT_SESSION_TIMEOUTS,
  type ResolvedSession,
  type SessionTimeouts,
} from './sessions/context.js';

export const SESSION_COOKIE = 'sid';

export interface SessionService {
  /** Creates a session and returns the token for the cookie. */
  create(userId: string): Promise<{ token: string; expiresAt: Date }>;
  /** The session behind a cookie token, or null. Served from memory while fresh: no query per request. */
  resolve(token: string): Promise<ResolvedSession | null>;
  /**
   * `resolve`'s answer when memory has it (the session, or null), else undefined: then call
   * `resolve`. No promise, for the heartbeat's path.
   */
  resolveNow(token: string): ResolvedSession | null | undefined;
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

/*
 * Sessions whose every request is answered from memory while fresh: one file per command
 * (sessions/commands/) and per query (sessions/queries/) over one SessionContext, which holds
 * the caches; this factory assembles them. The methods are made once here, so resolving a
 * heartbeat's session allocates nothing more than it did as one closure.
 */
export function createSessionService(deps: SessionDeps): SessionService {
  const ctx = createSessionContext(deps);
  return {
    create: (userId) => createSession(ctx, userId),
    resolve: (token) => resolveToken(ctx, token),
    resolveNow: (token) => resolveTokenNow(ctx, token),
    resolveIdHash: (idHash) => resolveIdHash(ctx, idHash),
    destroy: (token) => destroySession(ctx, token),
    destroyOthers: (userId, keepIdHash) => destroyOtherSessions(ctx, userId, keepIdHash),
    invalidateUser(userId) {
      ctx.bus.publish(userId);
    },
    flush: () => flushTouches(ctx),
    stats: () => ({ ...ctx.counters }),
    devices: createDeviceCookieSigner(deps.secret, ctx.now),
  };
}
