import { eq } from 'drizzle-orm';

import { type CurrentUser, TWO_FACTOR_ERROR_CODES } from '@portfolio/types';

import { twoFactorRecoveryCodes, userTwoFactor } from '../../../../db/schema.js';
import { HttpError } from '../../../../lib/errors.js';
import { recordAudit } from '../../../../access/audit.js';
import { verifyPassword } from '../../passwords.js';
import { checkCode } from '../codes.js';
import { findRow, type TwoFactorContext, wrongTwoFactorCode } from '../context.js';

/** Turns 2FA off after the account's password or a current code. */
export async function disableTwoFactor(
  ctx: TwoFactorContext,
  user: CurrentUser,
  proof: { password: string } | { code: string },
): Promise<void> {
  const row = await findRow(ctx, user.id);
  if (!row?.enabledAt) {
    throw new HttpError(TWO_FACTOR_ERROR_CODES.notEnabled, 'Two-factor sign-in is not on');
  }
  if ('password' in proof) {
    const account = await ctx.users.findById(user.id);
    if (!account || !(await verifyPassword(account.passwordHash, proof.password))) {
      throw new HttpError(TWO_FACTOR_ERROR_CODES.wrongPassword);
    }
  } else if (!(await checkCode(ctx, user, proof.code))) {
    throw wrongTwoFactorCode();
  }
  await ctx.db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
    await recordAudit(tx, {
      action: '2fa-disable',
      actor: user,
      target: user,
      oldValue: null,
      newValue: null,
    });
  });
  ctx.onChange(user.id);
}
