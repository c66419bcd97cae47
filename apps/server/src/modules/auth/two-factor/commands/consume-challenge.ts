import { eq } from 'drizzle-orm';

import { loginChallenges } from '../../../../db/schema.js';
import type { PendingLogin, TwoFactorContext } from '../context.js';

/** Ends a challenge; true only for the one request that ended it (single use). */
export async function consumeChallenge(
  { db }: TwoFactorContext,
  pending: PendingLogin,
): Promise<boolean> {
  const deleted = await db
    .delete(loginChallenges)
    .where(eq(loginChallenges.idHash, pending.idHash))
    .returning({ idHash: loginChallenges.idHash });
  return deleted.length === 1;
}
