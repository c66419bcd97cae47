import { isSigned, type ResolvedSession, type SessionContext } from '../context.js';
import { lookUp, lookUpCached } from './look-up.js';

/** The session behind a cookie token, or null (see SessionService.resolve). */
export async function resolveToken(
  ctx: SessionContext,
  token: string,
): Promise<ResolvedSession | null> {
  if (!token || token.length > 128) {
    return null;
  }
  const signed = isSigned(ctx, token);
  if (!signed && token.includes('.')) {
    return null;
  }
  // an unsigned token can only be one of the sessions that existed at startup; when there
  // are none left (any deployment made after signing began), it is refused right here
  if (!signed && ctx.legacy?.size === 0) {
    return null;
  }
  const idHash = ctx.hash(token);
  if (!signed) {
    await ctx.legacyLoaded;
    if (!ctx.legacy?.has(idHash)) {
      return null;
    }
  }
  return lookUp(ctx, idHash);
}

/**
 * resolveToken when memory can answer (a signed token whose session is cached or known to be
 * gone, or a token refused on sight); undefined when resolveToken must run. No promise: the
 * heartbeat's path.
 */
export function resolveTokenNow(
  ctx: SessionContext,
  token: string,
): ResolvedSession | null | undefined {
  if (!token || token.length > 128) {
    return null;
  }
  if (!isSigned(ctx, token)) {
    // an unsigned token with a dot is refused at once; one without may be a startup session
    return token.includes('.') || ctx.legacy?.size === 0 ? null : undefined;
  }
  return lookUpCached(ctx, ctx.hash(token));
}

/** The session with this id hash (a play ticket's), or null (see SessionService.resolveIdHash). */
export function resolveIdHash(
  ctx: SessionContext,
  idHash: string,
): Promise<ResolvedSession | null> {
  if (idHash.length > 128) {
    return Promise.resolve(null);
  }
  return lookUp(ctx, idHash);
}
