import { and, count, eq, isNull } from 'drizzle-orm';

import type { CurrentUser, TwoFactorStatus } from '@portfolio/types';

import { twoFactorRecoveryCodes } from '../../../../db/schema.js';
import { findRow, type TwoFactorContext } from '../context.js';

/** Whether 2FA is on for the user, how many recovery codes are left, and if it is required. */
export async function getStatus(
  ctx: TwoFactorContext,
  user: CurrentUser,
  isRequired: boolean,
): Promise<TwoFactorStatus> {
  const row = await findRow(ctx, user.id);
  if (!row?.enabledAt) {
    return { enabled: false, recoveryCodesLeft: 0, isRequired };
  }
  const [left] = await ctx.db
    .select({ value: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, user.id), isNull(twoFactorRecoveryCodes.usedAt)));
  return { enabled: true, recoveryCodesLeft: left?.value ?? 0, isRequired };
}
