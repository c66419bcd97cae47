import type {
  CurrentUser,
  SubscriptionGrant,
  UpdateGrantRequest,
  UpdateRoleRequest,
  UserDetail,
  UserListQuery,
  UserSummary,
} from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { badRequest, conflict, forbidden, userNotFound } from '../../lib/errors.js';
import type { DomainEventBus } from '../../lib/events.js';
import { toCurrentUser } from '../auth/index.js';
import { type AdminChange, type AdminChangeOutcome, createAdminRepo } from './admin-repo.js';
import { listAudit } from '../../access/audit.js';
import type { GameRecordsReader } from './game-records.js';
import { grantOf, toAuditEntry, toDeviceSummary, toUserSummary } from './present.js';
import type { UserRow, UsersRepo } from './repo.js';

/** How often the grants whose end has come are ended (a minute late at most). */
export const GRANT_CHECK_INTERVAL_MS = 60_000;

/** The answer about a user id that names no one (unknown or malformed). */

/** The refusals of an admin's change, worded for the admin who tried it. */
const REFUSALS: Record<AdminChange['action'], { self: string; lastAdmin: string }> = {
  'role-change': {
    self: 'You cannot change your own role',
    lastAdmin: 'The last admin cannot be demoted',
  },
  delete: {
    self: 'You cannot delete your own account',
    lastAdmin: 'The last admin cannot be deleted',
  },
};

function settle(outcome: AdminChangeOutcome, action: AdminChange['action']): UserRow {
  switch (outcome.kind) {
    case 'not-found':
      throw userNotFound();
    case 'self':
      throw conflict(REFUSALS[action].self);
    case 'last-admin':
      throw conflict(REFUSALS[action].lastAdmin);
    case 'actor-not-admin':
      throw forbidden();
    case 'done':
      return outcome.user;
  }
}

/** The admin's user management: list, detail, role changes and deletions. */
export function createAdminUsersService(deps: {
  db: Db;
  users: UsersRepo;
  gameRecords: GameRecordsReader;
  events: DomainEventBus;
}) {
  const { db, users, gameRecords, events } = deps;
  const adminRepo = createAdminRepo(db);

  return {
    async listUsers(query: UserListQuery): Promise<{ users: UserSummary[]; total: number }> {
      const { rows, total } = await users.list(query);
      return { users: rows.map(toUserSummary), total };
    },

    async getUser(userId: string): Promise<UserDetail> {
      const row = await users.findById(userId);
      if (!row) {
        throw userNotFound();
      }
      const [records, history] = await Promise.all([gameRecords(userId), listAudit(db, userId)]);
      return {
        ...toUserSummary(row),
        device_info: toDeviceSummary(row.deviceInfo),
        games: records.games,
        achievements: records.achievements,
        history: history.map(toAuditEntry),
        chat_status: row.chatStatus,
      };
    },

    /**
     * Gives a user another role. Their sessions are re-read everywhere, so the new role applies
     * to their next request; an admin cannot demote themselves or the last admin.
     */
    async changeRole(actor: CurrentUser, input: UpdateRoleRequest): Promise<CurrentUser> {
      const outcome = await adminRepo.apply(actor.id, input.userId, {
        action: 'role-change',
        role: input.role,
      });
      const user = settle(outcome, 'role-change');
      if (outcome.kind === 'done' && outcome.isChanged) {
        events.emit('user:role-changed', { userId: user.id, role: user.role });
      }
      return toCurrentUser(user);
    },

    /**
     * Sets when the subscription an admin granted ends (null: never). Only a subscriber whose
     * grant still holds has one; the end must be in the future.
     */
    async setGrantEnd(
      actor: CurrentUser,
      userId: string,
      input: UpdateGrantRequest,
      now = new Date(),
    ): Promise<SubscriptionGrant> {
      const endsAt = input.ends_at === null ? null : new Date(input.ends_at);
      if (endsAt && endsAt <= now) {
        throw badRequest('ends_at: must be in the future');
      }
      const outcome = await adminRepo.setGrantEnd(actor, userId, endsAt, now);
      if (outcome.kind === 'not-found') {
        throw userNotFound();
      }
      if (outcome.kind === 'no-grant') {
        throw conflict(
          `${outcome.username} has no subscription granted by an admin: set their role to Subscriber first`,
        );
      }
      return grantOf(outcome.grantedAt, endsAt);
    },

    /** Ends the grants whose end has come (every minute, and at start); returns how many. */
    async endExpiredGrants(now = new Date()): Promise<number> {
      const changed = await adminRepo.endExpiredGrants(now);
      for (const user of changed) {
        events.emit('user:role-changed', { userId: user.id, role: user.role });
      }
      return changed.length;
    },

    /**
     * Deletes a user with their sessions and game records. Every process drops their cached
     * sessions, so their next request is a guest's; the audit entry keeps their name.
     */
    async deleteUser(actor: CurrentUser, userId: string): Promise<void> {
      const outcome = await adminRepo.apply(actor.id, userId, { action: 'delete' });
      const user = settle(outcome, 'delete');
      events.emit('user:deleted', { userId: user.id });
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
