import { eq } from 'drizzle-orm';

import { loginChallenges } from '../../../../db/schema.js';
import {
  hmac,
  LOGIN_CHALLENGE_MAX_ATTEMPTS,
  type PendingLogin,
  type TwoFactorContext,
} from '../context.js';

/** The login a challenge belongs to, while it is live; null otherwise. */
export async function findChallenge(
  { db, now, challengeKey }: TwoFactorContext,
  challenge: string,
): Promise<PendingLogin | null> {
  const [row] = await db
    .select()
    .from(loginChallenges)
    .where(eq(loginChallenges.idHash, hmac(challengeKey, challenge)));
  if (!row || row.expiresAt.getTime() <= now() || row.attempts >= LOGIN_CHALLENGE_MAX_ATTEMPTS) {
    return null;
  }
  return {
    idHash: row.idHash,
    userId: row.userId,
    attempts: row.attempts,
    deviceInfo: row.deviceInfo,
    userAgent: row.userAgent,
  };
}
