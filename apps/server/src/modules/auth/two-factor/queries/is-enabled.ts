import { findRow, type TwoFactorContext } from '../context.js';

/** Whether sign-in asks this user for a second factor. */
export async function isTwoFactorEnabled(ctx: TwoFactorContext, userId: string): Promise<boolean> {
  const row = await findRow(ctx, userId);
  return Boolean(row?.enabledAt);
}
