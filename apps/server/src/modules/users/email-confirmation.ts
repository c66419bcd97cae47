import { and, eq, sql } from 'drizzle-orm';

import type { Db } from '../../db/client.js';
import { users as usersTable } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { EmailTokens } from '../auth/index.js';
import { emailChangedMail, emailConfirmMail, type MailQueue } from '../mail/index.js';
import type { UserRow, UsersRepo } from './repo.js';

/** How long a confirmation link works (README, "Mail"). */
export const CONFIRM_LINK_HOURS = 24;

const invalidConfirmLink = () =>
  new HttpError(
    'INVALID_CONFIRM_LINK',
    'This confirmation link is invalid or has expired. Change or save your email on your profile to get a new one.',
  );

/**
 * Email addresses count only once confirmed: a new address (at registration or from the profile)
 * gets a link; the old address is told of a change.
 */
export function createEmailConfirmation(deps: {
  db: Db;
  users: UsersRepo;
  tokens: EmailTokens;
  mail: MailQueue;
  siteOrigin: () => string;
}) {
  const { db, users, tokens, mail, siteOrigin } = deps;

  async function sendLink(user: Pick<UserRow, 'id' | 'username'>, email: string): Promise<void> {
    await tokens.revokeAll(user.id, 'email-confirm');
    const { token } = await tokens.issue({
      userId: user.id,
      purpose: 'email-confirm',
      ttlMs: CONFIRM_LINK_HOURS * 60 * 60_000,
      email,
    });
    await mail.enqueue(
      emailConfirmMail({
        to: email,
        username: user.username,
        url: `${siteOrigin()}/confirm-email#token=${token}`,
        hours: CONFIRM_LINK_HOURS,
      }),
    );
  }

  return {
    /** After registration: a link to the address given, if any. */
    async afterRegistration(userId: string): Promise<void> {
      const user = await users.findById(userId);
      if (user?.email && !user.emailConfirmedAt) {
        await sendLink(user, user.email);
      }
    },

    /**
     * The user's email was just set from `previous` (the row before): unconfirmed until its link
     * is followed; a confirmed old address is told. Saving the same address again sends a fresh
     * link if it is still unconfirmed, and nothing if it is confirmed.
     */
    async afterEmailChange(previous: UserRow, email: string): Promise<void> {
      const isSame = previous.email?.toLowerCase() === email.toLowerCase();
      if (isSame && previous.emailConfirmedAt) {
        return;
      }
      await sendLink(previous, email);
      if (!isSame && previous.email && previous.emailConfirmedAt) {
        await mail.enqueue(
          emailChangedMail({ to: previous.email, username: previous.username, newAddress: email }),
        );
      }
    },

    /** Confirms the address a link was sent to, if it is still the user's. */
    async confirm(token: string): Promise<void> {
      const used = await tokens.consume(token, 'email-confirm');
      if (!used?.email) {
        throw invalidConfirmLink();
      }
      const [row] = await db
        .update(usersTable)
        .set({ emailConfirmedAt: sql`now()` })
        .where(
          and(
            eq(usersTable.id, used.userId),
            sql`lower(${usersTable.email}) = lower(${used.email})`,
          ),
        )
        .returning({ id: usersTable.id });
      if (!row) {
        throw invalidConfirmLink();
      }
    },
  };
}

export type EmailConfirmation = ReturnType<typeof createEmailConfirmation>;
