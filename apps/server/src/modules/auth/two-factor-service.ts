import type { CurrentUser, DeviceInfo } from '@portfolio/types';

import { checkCode } from './two-factor/codes.js';
import { beginSetup } from './two-factor/commands/begin-setup.js';
import { claimAttempt } from './two-factor/commands/claim-attempt.js';
import { consumeChallenge } from './two-factor/commands/consume-challenge.js';
import { createChallenge } from './two-factor/commands/create-challenge.js';
import { disableTwoFactor } from './two-factor/commands/disable.js';
import { enableTwoFactor } from './two-factor/commands/enable.js';
import {
  createTwoFactorContext,
  type PendingLogin,
  type TwoFactorDeps,
} from './two-factor/context.js';
import { findChallenge } from './two-factor/queries/find-challenge.js';
import { getStatus } from './two-factor/queries/get-status.js';
import { isTwoFactorEnabled } from './two-factor/queries/is-enabled.js';

export {
  challengeExpired,
  invalidTwoFactorCode,
  LOGIN_CHALLENGE_MAX_ATTEMPTS,
  LOGIN_CHALLENGE_TTL_MS,
  parseTwoFactorCode,
  type PendingLogin,
} from './two-factor/context.js';

/**
 * TOTP setup and checks, recovery codes and login challenges. The TOTP secret is kept
 * encrypted (AES-256-GCM) and never returned after setup; recovery codes and challenges are kept
 * as HMACs only. One file per command (two-factor/commands/) and per query
 * (two-factor/queries/) over a TwoFactorContext; this factory assembles them.
 */
export function createTwoFactorService(deps: TwoFactorDeps) {
  const ctx = createTwoFactorContext(deps);
  return {
    /** Whether sign-in asks this user for a second factor. */
    isEnabled: (userId: string) => isTwoFactorEnabled(ctx, userId),
    getStatus: (user: CurrentUser, isRequired: boolean) => getStatus(ctx, user, isRequired),
    beginSetup: (user: CurrentUser) => beginSetup(ctx, user),
    enable: (user: CurrentUser, code: string) => enableTwoFactor(ctx, user, code),
    disable: (user: CurrentUser, proof: { password: string } | { code: string }) =>
      disableTwoFactor(ctx, user, proof),
    /** The code step of a login: 'totp', 'recovery' (used up and audited), or null. */
    checkLoginCode: (user: CurrentUser, raw: string) => checkCode(ctx, user, raw),
    createChallenge: (
      userId: string,
      deviceInfo: DeviceInfo | undefined,
      userAgent: string | undefined,
    ) => createChallenge(ctx, userId, deviceInfo, userAgent),
    findChallenge: (challenge: string) => findChallenge(ctx, challenge),
    claimAttempt: (pending: PendingLogin) => claimAttempt(ctx, pending),
    consumeChallenge: (pending: PendingLogin) => consumeChallenge(ctx, pending),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
