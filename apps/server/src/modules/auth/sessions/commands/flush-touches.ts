import { inArray, sql } from 'drizzle-orm';

import { sessions } from '../../../../db/schema.js';
import type { SessionContext } from '../context.js';

/** Writes pending idle-expiry extensions; called on a timer and at shutdown. */
export async function flushTouches(ctx: SessionContext): Promise<void> {
  const { pendingTouches } = ctx;
  if (pendingTouches.size === 0) {
    return;
  }
  const ids = [...pendingTouches];
  pendingTouches.clear();
  ctx.counters.writes++;
  // one statement for every session used since the last flush; never past the absolute expiry,
  // never shortened. The service's clock, not the database's: load() compares with it too.
  const extended = new Date(ctx.now() + ctx.timeouts.idleMs).toISOString();
  await ctx.db
    .update(sessions)
    .set({
      expiresAt: sql`greatest(${sessions.expiresAt}, least(${extended}::timestamptz, ${sessions.absoluteExpiresAt}))`,
    })
    .where(inArray(sessions.idHash, ids));
}
