import { eq } from 'drizzle-orm';

import { sessions } from '../../../../db/schema.js';
import { rememberUnknown, type SessionContext } from '../context.js';

/** Ends the session behind a cookie token, here and in every process that holds it. */
export async function destroySession(ctx: SessionContext, token: string): Promise<void> {
  const idHash = ctx.hash(token);
  ctx.cache.delete(idHash);
  ctx.pendingTouches.delete(idHash);
  ctx.legacy?.delete(idHash);
  rememberUnknown(ctx, idHash);
  ctx.counters.writes++;
  const deleted = await ctx.db
    .delete(sessions)
    .where(eq(sessions.idHash, idHash))
    .returning({ userId: sessions.userId });
  // other processes may hold this session in memory even when this one does not
  for (const { userId } of deleted) {
    ctx.bus.publish(userId);
  }
}
