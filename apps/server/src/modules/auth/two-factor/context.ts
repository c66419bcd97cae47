import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
} from 'node:crypto';

import { eq } from 'drizzle-orm';

import { type DeviceInfo, TWO_FACTOR_ERROR_CODES } from '@portfolio/types';

import type { Db } from '../../../db/client.js';
import { userTwoFactor } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import type { UsersRepo } from '../../users/index.js';

/** How long the code step of a login may wait after the password was accepted. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Codes one challenge may be tried with before it ends (the rate limits count across challenges). */
export const LOGIN_CHALLENGE_MAX_ATTEMPTS = 5;
/** Seconds either side of now a TOTP code is accepted: one 30 s step of clock drift. */
export const TOTP_TOLERANCE_SECONDS = 30;
/** Recovery codes: 10 characters of RFC 4648 base32 (50 bits), shown as XXXXX-XXXXX. */
const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const RECOVERY_CODE_LENGTH = 10;

/** A wrong code at the login's second step (401: no one is signed in). */
export const invalidTwoFactorCode = () => new HttpError(TWO_FACTOR_ERROR_CODES.invalidCode);
/** A wrong code given to turn 2FA on or off (400: the session itself is fine). */
export const wrongTwoFactorCode = () => new HttpError(TWO_FACTOR_ERROR_CODES.wrongCode);
export const challengeExpired = () =>
  new HttpError(
    TWO_FACTOR_ERROR_CODES.challengeExpired,
    'Your sign-in has expired. Please log in again.',
  );

/** A login waiting for its code. */
export interface PendingLogin {
  idHash: string;
  userId: string;
  attempts: number;
  deviceInfo: DeviceInfo | null;
  userAgent: string | null;
}

/** What a typed code is, once spaces and dashes are gone. */
type ParsedCode = { kind: 'totp'; value: string } | { kind: 'recovery'; value: string } | null;

export function parseTwoFactorCode(raw: string): ParsedCode {
  const value = raw.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{6}$/.test(value)) {
    return { kind: 'totp', value };
  }
  if (value.length === RECOVERY_CODE_LENGTH && /^[A-Z2-7]+$/.test(value)) {
    return { kind: 'recovery', value };
  }
  return null;
}

export function makeRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < RECOVERY_CODE_LENGTH; index++) {
    code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Keys derived from SESSION_SECRET, one per use. */
function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', `two-factor:${purpose}`, 32));
}

export interface TwoFactorDeps {
  db: Db;
  users: UsersRepo;
  secret: string;
  /** Drops the user's cached sessions, so the 2FA state they carry is read again. */
  onChange: (userId: string) => void;
  now?: () => number;
}

/** What every two-factor command and query works with. */
export interface TwoFactorContext {
  db: Db;
  users: UsersRepo;
  onChange: (userId: string) => void;
  now: () => number;
  encryptionKey: Buffer;
  recoveryKey: Buffer;
  challengeKey: Buffer;
}

export function createTwoFactorContext(deps: TwoFactorDeps): TwoFactorContext {
  return {
    db: deps.db,
    users: deps.users,
    onChange: deps.onChange,
    now: deps.now ?? Date.now,
    encryptionKey: deriveKey(deps.secret, 'totp-secret'),
    recoveryKey: deriveKey(deps.secret, 'recovery-code'),
    challengeKey: deriveKey(deps.secret, 'login-challenge'),
  };
}

export const hmac = (key: Buffer, value: string) =>
  createHmac('sha256', key).update(value).digest('base64url');

export function encrypt({ encryptionKey }: TwoFactorContext, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
  return ['v1', ...parts].join('.');
}

export function decrypt({ encryptionKey }: TwoFactorContext, stored: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !body) {
    throw new Error('Unknown TOTP secret format');
  }
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

export async function findRow({ db }: TwoFactorContext, userId: string) {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row;
}
