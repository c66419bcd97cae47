import { eq } from 'drizzle-orm';

import { type CurrentUser, RECOVERY_CODE_COUNT, TWO_FACTOR_ERROR_CODES } from '@portfolio/types';

import { twoFactorRecoveryCodes } from '../../../../db/schema.js';
import { HttpError } from '../../../../lib/errors.js';
import { recordAudit } from '../../../../access/audit.js';
import { acceptTotp } from '../codes.js';
import {
  findRow,
  hmac,
  makeRecoveryCode,
  parseTwoFactorCode,
  type TwoFactorContext,
  wrongTwoFactorCode,
} from '../context.js';

/** Turns 2FA on with a code from the app; returns the recovery codes (shown once). */
export async function enableTwoFactor(
  ctx: TwoFactorContext,
  user: CurrentUser,
  code: string,
): Promise<string[]> {
  const row = await findRow(ctx, user.id);
  if (row?.enabledAt) {
    throw new HttpError(TWO_FACTOR_ERROR_CODES.alreadyEnabled, 'Two-factor sign-in is already on');
  }
  if (!row) {
    throw new HttpError(
      TWO_FACTOR_ERROR_CODES.notEnabled,
      'Start the setup first: no secret has been made for this account',
    );
  }
  const parsed = parseTwoFactorCode(code);
  if (
    parsed?.kind !== 'totp' ||
    !(await acceptTotp(ctx, row, parsed.value, { isEnabling: true }))
  ) {
    throw wrongTwoFactorCode();
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, makeRecoveryCode);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    await tx.insert(twoFactorRecoveryCodes).values(
      codes.map((shown) => ({
        userId: user.id,
        codeHash: hmac(ctx.recoveryKey, shown.replace('-', '')),
      })),
    );
    await recordAudit(tx, {
      action: '2fa-enable',
      actor: user,
      target: user,
      oldValue: null,
      newValue: null,
    });
  });
  ctx.onChange(user.id);
  return codes;
}
