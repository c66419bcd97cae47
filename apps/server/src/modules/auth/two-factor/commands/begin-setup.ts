import { isNull } from 'drizzle-orm';
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';

import {
  type CurrentUser,
  SITE_NAME,
  TWO_FACTOR_ERROR_CODES,
  type TwoFactorSetupResponse,
} from '@portfolio/types';

import { userTwoFactor } from '../../../../db/schema.js';
import { HttpError } from '../../../../lib/errors.js';
import { encrypt, findRow, type TwoFactorContext } from '../context.js';

/**
 * The otpauth URI as an SVG QR code in a data URL, made here so the page needs no QR code of its
 * own and the secret never goes to a third-party image service.
 */
async function qrCodeDataUrl(otpauthUri: string): Promise<string> {
  const svg = await QRCode.toString(otpauthUri, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * Makes a new secret for the user to add to an authenticator app. Replaces an unconfirmed one;
 * refused (409) while 2FA is on, so a stolen session cannot move it to another device.
 */
export async function beginSetup(
  ctx: TwoFactorContext,
  user: CurrentUser,
): Promise<TwoFactorSetupResponse> {
  const existing = await findRow(ctx, user.id);
  if (existing?.enabledAt) {
    throw new HttpError(
      TWO_FACTOR_ERROR_CODES.alreadyEnabled,
      'Two-factor sign-in is already on. Turn it off first to set it up again.',
    );
  }
  const secret = generateSecret();
  const secretEncrypted = encrypt(ctx, secret);
  await ctx.db
    .insert(userTwoFactor)
    .values({ userId: user.id, secretEncrypted })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretEncrypted, lastUsedStep: null, createdAt: new Date(ctx.now()) },
      // never replace an enabled secret, even if it was turned on meanwhile
      setWhere: isNull(userTwoFactor.enabledAt),
    });
  const otpauthUri = generateURI({ issuer: SITE_NAME, label: user.username, secret });
  return { secret, otpauthUri, qrCodeDataUrl: await qrCodeDataUrl(otpauthUri) };
}
