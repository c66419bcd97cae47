import type { ChangePasswordRequest, Profile } from '@portfolio/types';

import { HttpError, conflict, uniqueViolationConstraint, unauthorized } from '../../lib/errors.js';
import {
  assertAcceptablePassword,
  hashPassword,
  type SessionService,
  verifyPassword,
} from '../auth/index.js';
import type { EmailConfirmation } from './email-confirmation.js';
import type { GameRecordsReader } from './game-records.js';
import { toProfile } from './present.js';
import type { UserRow, UsersRepo } from './repo.js';

/** A 401 of its own code: a wrong current password must not sign the user out in the web app. */
const wrongCurrentPassword = () =>
  new HttpError('INVALID_PASSWORD', 'Current password is incorrect');
const emailTaken = () => conflict('That email is already registered');

/** The signed-in user's own account: profile, email and password. */
export function createProfileService(deps: {
  users: UsersRepo;
  sessions: SessionService;
  gameRecords: GameRecordsReader;
  confirmation: EmailConfirmation;
}) {
  const { users, sessions, gameRecords, confirmation } = deps;

  /** The user behind a live session; a row deleted a moment ago reads as signed out. */
  async function load(userId: string): Promise<UserRow> {
    const row = await users.findById(userId);
    if (!row) {
      throw unauthorized();
    }
    return row;
  }

  return {
    async getProfile(userId: string): Promise<Profile> {
      const [row, records] = await Promise.all([load(userId), gameRecords(userId)]);
      return toProfile(row, records);
    },

    /** Turns subscription news (non-essential mail) on or off. */
    async setSubscriptionMail(userId: string, isWanted: boolean): Promise<void> {
      await load(userId);
      await users.setMailOptOut(userId, !isWanted);
    },

    /**
     * Sets or changes the email; one another account uses (in any letter case) is refused with
     * 409. A new address is unconfirmed until the link mailed to it is followed, and a confirmed
     * old address is told of the change.
     */
    async updateEmail(userId: string, email: string): Promise<void> {
      const previous = await load(userId);
      if (await users.isEmailTaken(email, userId)) {
        throw emailTaken();
      }
      try {
        await users.setEmail(userId, email);
        await confirmation.afterEmailChange(previous, email);
      } catch (error) {
        // someone took it between the check and the write
        if (uniqueViolationConstraint(error) === 'users_email_lower_idx') {
          throw emailTaken();
        }
        throw error;
      }
    },

    /**
     * Replaces the password after checking the current one and ends the user's other sessions in
     * every process. The session that asked is renewed as a login renews it: a new token (for
     * the cookie) replaces its own, so a token copied before the change stops working too. A
     * wrong current password is a 401 with its own code.
     */
    async changePassword(
      session: { userId: string; idHash: string; token: string },
      input: ChangePasswordRequest,
    ): Promise<{ token: string; expiresAt: Date }> {
      const row = await load(session.userId);
      if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
        throw wrongCurrentPassword();
      }
      assertAcceptablePassword(input.newPassword, row.username);
      await users.setPasswordHash(row.id, await hashPassword(input.newPassword));
      await sessions.destroyOthers(row.id, session.idHash);
      // made before the old one goes, so a failure here leaves the user signed in
      const renewed = await sessions.create(row.id);
      await sessions.destroy(session.token);
      return renewed;
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
