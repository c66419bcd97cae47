import { randomBytes } from 'node:crypto';

import { lt } from 'drizzle-orm';

import { sessions } from '../../../../db/schema.js';
import type { SessionContext } from '../context.js';

/** Creates a session and returns the token for the cookie. */
export async function createSession(
  ctx: SessionContext,
  userId: string,
): Promise<{ token: string; expiresAt: Date }> {
  const { db, timeouts } = ctx;
  const random = randomBytes(32).toString('base64url');
  const token = `${random}.${ctx.mac.sign(random)}`;
  const time = ctx.now();
  const absoluteExpiresAt = new Date(time + timeouts.absoluteMs);
  const expiresAt = new Date(Math.min(time + timeouts.idleMs, absoluteExpiresAt.getTime()));
  ctx.counters.writes++;
  await db
    .insert(sessions)
    .values({ idHash: ctx.hash(token), userId, expiresAt, absoluteExpiresAt });
  // an occasional sweep keeps the table small without a separate job
  if (Math.random() < 0.02) {
    ctx.counters.writes++;
    await db.delete(sessions).where(lt(sessions.expiresAt, new Date(time)));
  }
  return { token, expiresAt: absoluteExpiresAt };
}
