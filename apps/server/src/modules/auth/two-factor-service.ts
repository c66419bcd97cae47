import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
} from 'node:crypto';

import { and, count, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

import {
  type CurrentUser,
  type DeviceInfo,
  RECOVERY_CODE_COUNT,
  SITE_NAME,
  TWO_FACTOR_ERROR_CODES,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
} from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { loginChallenges, twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { recordAudit } from '../../access/audit.js';
import type { UsersRepo } from '../users/index.js';
import { verifyPassword } from './passwords.js';

/** How long the code step of a login may wait after the password was accepted. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Codes one challenge may be tried with before it ends (the rate limits count across challenges). */
export const LOGIN_CHALLENGE_MAX_ATTEMPTS = 5;
/** Seconds either side of now a TOTP code is accepted: one 30 s step of clock drift. */
const TOTP_TOLERANCE_SECONDS = 30;
/** Recovery codes: 10 characters of RFC 4648 base32 (50 bits), shown as XXXXX-XXXXX. */
const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const RECOVERY_CODE_LENGTH = 10;

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

/** A wrong code at the login's second step (401: no one is signed in). */
export const invalidTwoFactorCode = () => new HttpError(TWO_FACTOR_ERROR_CODES.invalidCode);
/** A wrong code given to turn 2FA on or off (400: the session itself is fine). */
const wrongTwoFactorCode = () => new HttpError(TWO_FACTOR_ERROR_CODES.wrongCode);
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

function makeRecoveryCode(): string {
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

/**
 * TOTP setup and checks, recovery codes and login challenges. The TOTP secret is kept
 * encrypted (AES-256-GCM) and never returned after setup; recovery codes and challenges are kept
 * as HMACs only.
 */
export function createTwoFactorService(deps: {
  db: Db;
  users: UsersRepo;
  secret: string;
  /** Drops the user's cached sessions, so the 2FA state they carry is read again. */
  onChange: (userId: string) => void;
  now?: () => number;
}) {
  const { db, users, onChange } = deps;
  const now = deps.now ?? Date.now;
  const encryptionKey = deriveKey(deps.secret, 'totp-secret');
  const recoveryKey = deriveKey(deps.secret, 'recovery-code');
  const challengeKey = deriveKey(deps.secret, 'login-challenge');

  const hmac = (key: Buffer, value: string) =>
    createHmac('sha256', key).update(value).digest('base64url');

  function encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
    return ['v1', ...parts].join('.');
  }

  function decrypt(stored: string): string {
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

  async function findRow(userId: string) {
    const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    return row;
  }

  /**
   * Checks a TOTP code against the row's secret and takes its time step, so the same code (or an
   * older one) is never accepted twice, even by two requests at once.
   */
  async function acceptTotp(
    row: typeof userTwoFactor.$inferSelect,
    code: string,
    options: { isEnabling: boolean },
  ): Promise<boolean> {
    const result = await verify({
      secret: decrypt(row.secretEncrypted),
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
  async function acceptRecoveryCode(user: CurrentUser, code: string): Promise<boolean> {
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
  async function checkCode(user: CurrentUser, raw: string): Promise<'totp' | 'recovery' | null> {
    const parsed = parseTwoFactorCode(raw);
    const row = await findRow(user.id);
    if (!parsed || !row?.enabledAt) {
      return null;
    }
    if (parsed.kind === 'totp') {
      return (await acceptTotp(row, parsed.value, { isEnabling: false })) ? 'totp' : null;
    }
    return (await acceptRecoveryCode(user, parsed.value)) ? 'recovery' : null;
  }

  return {
    /** Whether sign-in asks this user for a second factor. */
    async isEnabled(userId: string): Promise<boolean> {
      const row = await findRow(userId);
      return Boolean(row?.enabledAt);
    },

    async getStatus(user: CurrentUser, isRequired: boolean): Promise<TwoFactorStatus> {
      const row = await findRow(user.id);
      if (!row?.enabledAt) {
        return { enabled: false, recoveryCodesLeft: 0, isRequired };
      }
      const [left] = await db
        .select({ value: count() })
        .from(twoFactorRecoveryCodes)
        .where(
          and(eq(twoFactorRecoveryCodes.userId, user.id), isNull(twoFactorRecoveryCodes.usedAt)),
        );
      return { enabled: true, recoveryCodesLeft: left?.value ?? 0, isRequired };
    },

    /**
     * Makes a new secret for the user to add to an authenticator app. Replaces an unconfirmed one;
     * refused (409) while 2FA is on, so a stolen session cannot move it to another device.
     */
    async beginSetup(user: CurrentUser): Promise<TwoFactorSetupResponse> {
      const existing = await findRow(user.id);
      if (existing?.enabledAt) {
        throw new HttpError(
          TWO_FACTOR_ERROR_CODES.alreadyEnabled,
          'Two-factor sign-in is already on. Turn it off first to set it up again.',
        );
      }
      const secret = generateSecret();
      const secretEncrypted = encrypt(secret);
      await db
        .insert(userTwoFactor)
        .values({ userId: user.id, secretEncrypted })
        .onConflictDoUpdate({
          target: userTwoFactor.userId,
          set: { secretEncrypted, lastUsedStep: null, createdAt: new Date(now()) },
          // never replace an enabled secret, even if it was turned on meanwhile
          setWhere: isNull(userTwoFactor.enabledAt),
        });
      const otpauthUri = generateURI({ issuer: SITE_NAME, label: user.username, secret });
      return { secret, otpauthUri, qrCodeDataUrl: await qrCodeDataUrl(otpauthUri) };
    },

    /** Turns 2FA on with a code from the app; returns the recovery codes (shown once). */
    async enable(user: CurrentUser, code: string): Promise<string[]> {
      const row = await findRow(user.id);
      if (row?.enabledAt) {
        throw new HttpError(
          TWO_FACTOR_ERROR_CODES.alreadyEnabled,
          'Two-factor sign-in is already on',
        );
      }
      if (!row) {
        throw new HttpError(
          TWO_FACTOR_ERROR_CODES.notEnabled,
          'Start the setup first: no secret has been made for this account',
        );
      }
      const parsed = parseTwoFactorCode(code);
      if (parsed?.kind !== 'totp' || !(await acceptTotp(row, parsed.value, { isEnabling: true }))) {
        throw wrongTwoFactorCode();
      }
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, makeRecoveryCode);
      await db.transaction(async (tx) => {
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
        await tx.insert(twoFactorRecoveryCodes).values(
          codes.map((shown) => ({
            userId: user.id,
            codeHash: hmac(recoveryKey, shown.replace('-', '')),
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
      onChange(user.id);
      return codes;
    },

    /** Turns 2FA off after the account's password or a current code. */
    async disable(
      user: CurrentUser,
      proof: { password: string } | { code: string },
    ): Promise<void> {
      const row = await findRow(user.id);
      if (!row?.enabledAt) {
        throw new HttpError(TWO_FACTOR_ERROR_CODES.notEnabled, 'Two-factor sign-in is not on');
      }
      if ('password' in proof) {
        const account = await users.findById(user.id);
        if (!account || !(await verifyPassword(account.passwordHash, proof.password))) {
          throw new HttpError(TWO_FACTOR_ERROR_CODES.wrongPassword);
        }
      } else if (!(await checkCode(user, proof.code))) {
        throw wrongTwoFactorCode();
      }
      await db.transaction(async (tx) => {
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
      onChange(user.id);
    },

    /** The code step of a login: 'totp', 'recovery' (used up and audited), or null. */
    checkLoginCode: checkCode,

    /** Starts the code step of a login; the answer carries the returned challenge. */
    async createChallenge(
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
    },

    /** The login a challenge belongs to, while it is live; null otherwise. */
    async findChallenge(challenge: string): Promise<PendingLogin | null> {
      const [row] = await db
        .select()
        .from(loginChallenges)
        .where(eq(loginChallenges.idHash, hmac(challengeKey, challenge)));
      if (
        !row ||
        row.expiresAt.getTime() <= now() ||
        row.attempts >= LOGIN_CHALLENGE_MAX_ATTEMPTS
      ) {
        return null;
      }
      return {
        idHash: row.idHash,
        userId: row.userId,
        attempts: row.attempts,
        deviceInfo: row.deviceInfo,
        userAgent: row.userAgent,
      };
    },

    /**
     * Takes one of the challenge's tries before its code is checked, so guesses sent together
     * (from any number of addresses) cannot take more than it has; false when none is left.
     */
    async claimAttempt(pending: PendingLogin): Promise<boolean> {
      const claimed = await db
        .update(loginChallenges)
        .set({ attempts: sql`${loginChallenges.attempts} + 1` })
        .where(
          and(
            eq(loginChallenges.idHash, pending.idHash),
            lt(loginChallenges.attempts, LOGIN_CHALLENGE_MAX_ATTEMPTS),
          ),
        )
        .returning({ idHash: loginChallenges.idHash });
      return claimed.length === 1;
    },

    /** Ends a challenge; true only for the one request that ended it (single use). */
    async consumeChallenge(pending: PendingLogin): Promise<boolean> {
      const deleted = await db
        .delete(loginChallenges)
        .where(eq(loginChallenges.idHash, pending.idHash))
        .returning({ idHash: loginChallenges.idHash });
      return deleted.length === 1;
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
