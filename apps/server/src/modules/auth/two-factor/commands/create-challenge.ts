import { randomBytes } from 'node:crypto';

import { lte } from 'drizzle-orm';

import type { DeviceInfo } from '@portfolio/types';

import { loginChallenges } from '../../../../db/schema.js';
import { hmac, LOGIN_CHALLENGE_TTL_MS, type TwoFactorContext } from '../context.js';

/** Starts the code step of a login; the answer carries the returned challenge. */
export async function createChallenge(
  { db, now, challengeKey }: TwoFactorContext,
  userId: string,
  deviceInfo: DeviceInfo | undefined,
  userAgent: string | undefined,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await db.insert(loginChallenges).values({
    idHash: hmac(challengeKey, challenge),
    userId,
    expiresAt: new Date(now() + LOGIN_CHALLENGE_TTL_MS),
    deviceInfo: deviceInfo ?? null,
    userAgent: userAgent?.slice(0, 512) ?? null,
  });
  // an occasional sweep keeps the table small without a separate job
  if (Math.random() < 0.05) {
    await db.delete(loginChallenges).where(lte(loginChallenges.expiresAt, new Date(now())));
  }
  return challenge;
}
