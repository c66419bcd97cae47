import { and, eq, ne } from 'drizzle-orm';

import { sessions } from '../../../../db/schema.js';
import type { SessionContext } from '../context.js';

/** Ends every session of a user but one (a password change), in every process. */
export async function destroyOtherSessions(
  ctx: SessionContext,
  userId: string,
  keepIdHash: string,
): Promise<number> {
  ctx.counters.writes++;
  const deleted = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
    .returning({ idHash: sessions.idHash });
  for (const { idHash } of deleted) {
    ctx.pendingTouches.delete(idHash);
  }
  // every process drops its cached copies; the kept session is simply read again
  ctx.bus.publish(userId);
  return deleted.length;
}
