import { and, isNotNull, sql } from 'drizzle-orm';

import type { Db } from '../../db/client.js';
import { users as usersTable } from '../../db/schema.js';
import { HttpError, userNotFound } from '../../lib/errors.js';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.js';
import {
  type MailQueue,
  passwordChangedMail,
  passwordResetMail,
  registrationAttemptMail,
} from '../mail/index.js';
import { recordAudit, type Actor } from '../../access/audit.js';
import type { UserRow, UsersRepo } from '../users/index.js';
import type { EmailTokens } from './email-tokens.js';
import { assertAcceptablePassword } from './password-policy.js';
import { hashPassword } from './passwords.js';
import type { SessionService } from './session-service.js';

/** How long a reset link works (README, "Password reset"). */
export const RESET_LINK_MINUTES = 30;
/** An admin's hand-over link: long enough to reach someone by another way. */
export const ADMIN_RESET_LINK_HOURS = 24;
/** Reset mails one account may be sent per hour (more is someone filling a mailbox). */
export const RESET_MAILS_PER_ACCOUNT: RateLimitRule = { limit: 3, windowMs: 60 * 60_000 };

export const invalidResetLink = () =>
  new HttpError(
    'INVALID_RESET_LINK',
    'This password reset link is invalid or has expired. Please ask for a new one.',
  );

/** Password reset by mail, and the admin's one-time link for accounts without an email. */
export function createPasswordResetService(deps: {
  db: Db;
  users: UsersRepo;
  sessions: SessionService;
  tokens: EmailTokens;
  mail: MailQueue;
  rateLimiter: RateLimiter;
  siteOrigin: () => string;
  perAccountLimit?: RateLimitRule;
}) {
  const { db, users, sessions, tokens, mail, rateLimiter, siteOrigin } = deps;
  const perAccount = deps.perAccountLimit ?? RESET_MAILS_PER_ACCOUNT;
  const resetUrl = (token: string) => `${siteOrigin()}/reset-password#token=${token}`;

  /** The account a username or a confirmed email names. */
  async function findAccount(login: string): Promise<UserRow | undefined> {
    if (!login.includes('@')) {
      return users.findByUsername(login);
    }
    const [row] = await db
      .select()
      .from(usersTable)
      .where(
        and(
          sql`lower(${usersTable.email}) = lower(${login})`,
          isNotNull(usersTable.emailConfirmedAt),
        ),
      )
      .limit(1);
    return row;
  }

  return {
    /**
     * Sends a reset link to the account's confirmed address, if there is such an account and it
     * has not had its share of reset mails this hour. Says nothing either way: the route answers
     * before this runs, so neither the answer nor its timing tells whether the account exists.
     */
    async requestReset(login: string): Promise<void> {
      const user = await findAccount(login.trim());
      if (!user?.email || !user.emailConfirmedAt) {
        return;
      }
      const { allowed } = await rateLimiter.consume(`forgot:user:${user.id}`, perAccount);
      if (!allowed) {
        return;
      }
      const { token } = await tokens.issue({
        userId: user.id,
        purpose: 'password-reset',
        ttlMs: RESET_LINK_MINUTES * 60_000,
      });
      await mail.enqueue(
        passwordResetMail({
          to: user.email,
          username: user.username,
          url: resetUrl(token),
          minutes: RESET_LINK_MINUTES,
        }),
      );
    },

    /**
     * Sets a new password with a reset token: once, before it expires, by the site's password
     * rules. Every session of the user ends, every other reset link too, and the confirmed
     * address is told.
     */
    async resetPassword(token: string, password: string): Promise<void> {
      // the rules are checked before the token is spent, so a refused password keeps the link
      const owner = await tokens.peek(token, 'password-reset');
      if (!owner) {
        throw invalidResetLink();
      }
      const user = await users.findById(owner.userId);
      if (!user) {
        throw invalidResetLink();
      }
      assertAcceptablePassword(password, user.username);
      const passwordHash = await hashPassword(password);
      if (!(await tokens.consume(token, 'password-reset'))) {
        throw invalidResetLink();
      }
      await users.setPasswordHash(user.id, passwordHash);
      await tokens.revokeAll(user.id, 'password-reset');
      await sessions.destroyOthers(user.id, '');
      if (user.email && user.emailConfirmedAt) {
        await mail.enqueue(
          passwordChangedMail({
            to: user.email,
            username: user.username,
            url: `${siteOrigin()}/login`,
          }),
        );
      }
    },

    /**
     * A registration gave this address, which an account uses: its owner is told, with links to
     * sign in and to reset the password (a confirmed address only, and no more mails an hour than
     * resets, so registering cannot fill a mailbox). Runs after the answer, like requestReset.
     */
    async tellOwnerOfRegistration(email: string): Promise<void> {
      const owner = await users.findByEmail(email);
      if (!owner?.email || !owner.emailConfirmedAt) {
        return;
      }
      const { allowed } = await rateLimiter.consume(`register-notice:user:${owner.id}`, perAccount);
      if (!allowed) {
        return;
      }
      await mail.enqueue(
        registrationAttemptMail({
          to: owner.email,
          username: owner.username,
          signInUrl: `${siteOrigin()}/login`,
          resetUrl: `${siteOrigin()}/forgot-password`,
        }),
      );
    },

    /** A one-time link the admin hands over another way (accounts without an email); audited. */
    async createAdminResetLink(
      actor: NonNullable<Actor>,
      userId: string,
    ): Promise<{ url: string; expiresAt: Date }> {
      const user = await users.findById(userId);
      if (!user) {
        throw userNotFound();
      }
      const { token, expiresAt } = await tokens.issue({
        userId: user.id,
        purpose: 'password-reset',
        ttlMs: ADMIN_RESET_LINK_HOURS * 60 * 60_000,
      });
      await recordAudit(db, {
        action: 'reset-link',
        actor,
        target: { id: user.id, username: user.username },
        oldValue: null,
        newValue: expiresAt.toISOString(),
      });
      return { url: resetUrl(token), expiresAt };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
