/**
 * Two-factor sign-in: TOTP from any authenticator app, with one-use recovery codes.
 * Its own entry ('@portfolio/types/two-factor') so the profile's 2FA card and the login page's
 * code step load it only when they are shown.
 */
import { z } from 'zod';

import type { ApiErrorCode } from './errors.js';

/** Recovery codes made when 2FA is turned on; each signs in once. */
export const RECOVERY_CODE_COUNT = 10;

/** Error codes a client can tell apart. */
export const TWO_FACTOR_ERROR_CODES = {
  /** A wrong, reused or malformed TOTP or recovery code at the login's second step (401). */
  invalidCode: 'INVALID_TWO_FACTOR_CODE',
  /** A wrong code given to turn 2FA on or off (400: the session is not at stake). */
  wrongCode: 'TWO_FACTOR_WRONG_CODE',
  /** A wrong current password given to turn 2FA off (400). */
  wrongPassword: 'TWO_FACTOR_WRONG_PASSWORD',
  /** The login challenge is unknown, used, expired or out of attempts: sign in again. */
  challengeExpired: 'TWO_FACTOR_CHALLENGE_EXPIRED',
  /** ADMIN_REQUIRE_2FA: this admin session may only set up 2FA until it is on. */
  setupRequired: 'TWO_FACTOR_SETUP_REQUIRED',
  /** 2FA is already on (set up again after turning it off). */
  alreadyEnabled: 'TWO_FACTOR_ALREADY_ENABLED',
  /** 2FA is not on, or no setup was started. */
  notEnabled: 'TWO_FACTOR_NOT_ENABLED',
} as const satisfies Record<string, ApiErrorCode>;

/** A code as typed: spaces and dashes are ignored by the server. */
export const TwoFactorCode = z.string().trim().min(1, 'Please enter a code').max(64, 'is too long');

/** Second step of a login: the challenge from the first answer and a TOTP or recovery code. */
export const LoginTwoFactorRequest = z.object({
  challenge: z.string().min(1).max(128),
  code: TwoFactorCode,
});
export type LoginTwoFactorRequest = z.infer<typeof LoginTwoFactorRequest>;

/** GET /api/me/2fa */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left (0 when 2FA is off). */
  recoveryCodesLeft: z.number().int().nonnegative(),
  /** ADMIN_REQUIRE_2FA applies to this user (an admin). */
  isRequired: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** POST /api/me/2fa/setup: the secret to enter by hand and the otpauth:// URI for a QR reader. */
export const TwoFactorSetupResponse = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  /** The otpauth URI as a QR code (an SVG data URL) for the app's camera, made by the server. */
  qrCodeDataUrl: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponse>;

/** POST /api/me/2fa/enable */
export const TwoFactorEnableRequest = z.object({ code: TwoFactorCode });
export type TwoFactorEnableRequest = z.infer<typeof TwoFactorEnableRequest>;

/** Shown once: only their hashes are kept. */
export const TwoFactorEnableResponse = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type TwoFactorEnableResponse = z.infer<typeof TwoFactorEnableResponse>;

/** POST /api/me/2fa/disable: the account's password or a current code (TOTP or recovery). */
export const TwoFactorDisableRequest = z.union([
  z.object({ password: z.string().min(1, 'Please enter your password').max(256) }),
  z.object({ code: TwoFactorCode }),
]);
export type TwoFactorDisableRequest = z.infer<typeof TwoFactorDisableRequest>;
