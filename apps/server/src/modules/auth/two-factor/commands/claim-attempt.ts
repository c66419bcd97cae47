import { and, eq, lt, sql } from 'drizzle-orm';

import { loginChallenges } from '../../../../db/schema.js';
import {
  LOGIN_CHALLENGE_MAX_ATTEMPTS,
  type PendingLogin,
  type TwoFactorContext,
} from '../context.js';

/**
 * Takes one of the challenge's tries before its code is checked, so guesses sent together
 * (from any number of addresses) cannot take more than it has; false when none is left.
 */
export async function claimAttempt(
  { db }: TwoFactorContext,
  pending: PendingLogin,
): Promise<boolean> {
  const claimed = await db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(
      and(
        eq(loginChallenges.idHash, pending.idHash),
        lt(loginChallenges.attempts, LOGIN_CHALLENGE_MAX_ATTEMPTS),
      ),
    )
    .returning({ idHash: loginChallenges.idHash });
  return claimed.length === 1;
}
