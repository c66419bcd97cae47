import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { verify } from 'otplib';

import type { CurrentUser } from '@portfolio/types';

import { twoFactorRecoveryCodes, userTwoFactor } from '../../../db/schema.js';
import { recordAudit } from '../../../access/audit.js';
import {
  decrypt,
  findRow,
  hmac,
  parseTwoFactorCode,
  TOTP_TOLERANCE_SECONDS,
  type TwoFactorContext,
} from './context.js';

/*
 * Checking a code a user typed: a TOTP code takes its time step, a recovery code is used up.
 * Shared by turning 2FA on and off and by the login's code step.
 */

/**
 * Checks a TOTP code against the row's secret and takes its time step, so the same code (or an
 * older one) is never accepted twice, even by two requests at once.
 */
export async function acceptTotp(
  ctx: TwoFactorContext,
  row: typeof userTwoFactor.$inferSelect,
  code: string,
  options: { isEnabling: boolean },
): Promise<boolean> {
  const { db, now } = ctx;
  const result = await verify({
    secret: decrypt(ctx, row.secretEncrypted),
    token: code,
    epoch: Math.floor(now() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(row.lastUsedStep === null ? {} : { afterTimeStep: row.lastUsedStep }),
  });
  if (!result.valid || !('timeStep' in result)) {
    return false;
  }
  const step = result.timeStep;
  const taken = await db
    .update(userTwoFactor)
    .set({
      lastUsedStep: step,
      ...(options.isEnabling ? { enabledAt: new Date(now()) } : {}),
    })
    .where(
      and(
        eq(userTwoFactor.userId, row.userId),
        options.isEnabling ? isNull(userTwoFactor.enabledAt) : isNotNull(userTwoFactor.enabledAt),
        or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return taken.length === 1;
}

/** Marks a recovery code used; true only the first time. Audited. */
async function acceptRecoveryCode(
  { db, now, recoveryKey }: TwoFactorContext,
  user: CurrentUser,
  code: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await tx
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: new Date(now()) })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, user.id),
          eq(twoFactorRecoveryCodes.codeHash, hmac(recoveryKey, code)),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    if (used.length !== 1) {
      return false;
    }
    const [left] = await tx
      .select({ value: count() })
      .from(twoFactorRecoveryCodes)
      .where(
        and(eq(twoFactorRecoveryCodes.userId, user.id), isNull(twoFactorRecoveryCodes.usedAt)),
      );
    await recordAudit(tx, {
      action: '2fa-recovery-code',
      actor: user,
      target: user,
      oldValue: null,
      newValue: String(left?.value ?? 0),
    });
    return true;
  });
}

/** A TOTP or recovery code of a user whose 2FA is on: 'totp', 'recovery', or null if wrong. */
export async function checkCode(
  ctx: TwoFactorContext,
  user: CurrentUser,
  raw: string,
): Promise<'totp' | 'recovery' | null> {
  const parsed = parseTwoFactorCode(raw);
  const row = await findRow(ctx, user.id);
  if (!parsed || !row?.enabledAt) {
    return null;
  }
  if (parsed.kind === 'totp') {
    return (await acceptTotp(ctx, row, parsed.value, { isEnabling: false })) ? 'totp' : null;
  }
  return (await acceptRecoveryCode(ctx, user, parsed.value)) ? 'recovery' : null;
}
