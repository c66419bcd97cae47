import type { CurrentUser, DeviceInfo, RegisterRequest, Role } from '@portfolio/types';

import { conflict, uniqueViolationConstraint } from '../../lib/errors.js';
import type { DomainEventBus } from '../../lib/events.js';
import type { UserRow, UsersRepo } from '../users/index.js';
import { describeDevice } from './device-info.js';
import { assertAcceptablePassword } from './password-policy.js';
import { getDummyHash, hashPassword, verifyPassword } from './passwords.js';

export const toCurrentUser = (row: Pick<UserRow, 'id' | 'username' | 'role'>): CurrentUser => ({
  id: row.id,
  username: row.username,
  role: row.role,
});

export function createAuthService(deps: { users: UsersRepo; events: DomainEventBus }) {
  const { users, events } = deps;

  /** The new account; a taken username is a 409, a taken email gives no account (undefined). */
  async function insertNewUser(values: {
    username: string;
    email: string | null;
    passwordHash: string;
  }): Promise<UserRow | undefined> {
    try {
      return await users.insert(values);
    } catch (error) {
      const constraint = uniqueViolationConstraint(error);
      if (constraint === 'users_username_lower_idx') {
        throw conflict('That username is already taken');
      }
      if (constraint === 'users_email_lower_idx') {
        return undefined;
      }
      throw error;
    }
  }

  return {
    /**
     * A taken username is a 409 (usernames are public). A taken email is not: the account is made
     * without it and the answer is a normal success, so registering cannot tell whether an address
     * has an account; the address's owner is told instead (as forgot-password answers alike).
     */
    async register(input: RegisterRequest): Promise<CurrentUser> {
      assertAcceptablePassword(input.password, input.username);
      if (await users.findByUsername(input.username)) {
        throw conflict('That username is already taken');
      }
      const values = { username: input.username, passwordHash: await hashPassword(input.password) };
      const email = input.email || null;
      const isEmailFree = email !== null && (await users.findByEmail(email)) === undefined;
      // the look-up spares most failed inserts; the unique index still decides a concurrent one
      let row = isEmailFree ? await insertNewUser({ ...values, email }) : undefined;
      row ??= await insertNewUser({ ...values, email: null });
      if (!row) {
        throw new Error('an account without an email cannot take a used one');
      }
      if (email !== null && row.email === null) {
        events.emit('user:registration-email-taken', { email });
      }
      events.emit('user:registered', { userId: row.id, at: row.createdAt });
      return toCurrentUser(row);
    },

    /** The user for these credentials, or null. Takes the same time whether or not the user exists. */
    async verifyCredentials(username: string, password: string): Promise<CurrentUser | null> {
      const row = await users.findByUsername(username);
      if (!row) {
        await verifyPassword(await getDummyHash(), password);
        return null;
      }
      return (await verifyPassword(row.passwordHash, password)) ? toCurrentUser(row) : null;
    },

    /** The user with this id, or null (deleted). */
    async findUser(userId: string): Promise<CurrentUser | null> {
      const row = await users.findById(userId);
      return row ? toCurrentUser(row) : null;
    },

    /** Tells presence and others that this user signed out (their session is already gone). */
    recordLogout(userId: string): void {
      events.emit('user:logged-out', { userId });
    },

    async recordLogin(
      userId: string,
      deviceInfo: DeviceInfo | undefined,
      userAgent: string | undefined,
    ): Promise<void> {
      await users.recordLogin(userId, describeDevice(deviceInfo, userAgent));
    },

    /**
     * Creates the user as admin, or makes an existing user admin. The password is set only when the
     * user is created, or when `resetPassword` is true (the CLI).
     */
    async ensureAdmin(
      username: string,
      password: string,
      options: { resetPassword?: boolean } = {},
    ): Promise<{ user: CurrentUser; created: boolean }> {
      const existing = await users.findByUsername(username);
      // a password the admin sets now must pass the same rule as everyone's
      if (!existing || options.resetPassword) {
        assertAcceptablePassword(password, username);
      }
      if (!existing) {
        const row = await users.insert({
          username,
          email: null,
          passwordHash: await hashPassword(password),
          role: 'admin',
        });
        events.emit('user:registered', { userId: row.id, at: row.createdAt });
        return { user: toCurrentUser(row), created: true };
      }
      if (options.resetPassword) {
        await users.setPasswordHash(existing.id, await hashPassword(password));
      }
      if (existing.role !== 'admin') {
        await users.setRoleAsSystem(existing, 'admin');
        events.emit('user:role-changed', { userId: existing.id, role: 'admin' satisfies Role });
      }
      return { user: { ...toCurrentUser(existing), role: 'admin' }, created: false };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
