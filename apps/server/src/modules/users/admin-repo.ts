import { eq } from 'drizzle-orm';

import type { Role } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { recordAudit } from './audit.js';
import type { UserRow } from './repo.js';

/** How an admin's change to another account ended. */
export type AdminChangeOutcome =
  | { kind: 'not-found' }
  /** The admin tried to delete or demote their own account. */
  | { kind: 'self' }
  /** The change would leave no admin. */
  | { kind: 'last-admin' }
  /** The acting admin lost the role while the request was on its way. */
  | { kind: 'actor-not-admin' }
  | { kind: 'done'; user: UserRow; previousRole: Role; isChanged: boolean };

export type AdminChange = { action: 'role-change'; role: Role } | { action: 'delete' };

/**
 * Role changes and deletions made by admins, each in one transaction with its audit entry. The
 * admins' rows are locked first (in id order), so two admins demoting or deleting each other at
 * once are served one after the other and the second sees the first's result: there is always an
 * admin left.
 */
export function createAdminRepo(db: Db) {
  return {
    async apply(
      actorId: string,
      targetId: string,
      change: AdminChange,
    ): Promise<AdminChangeOutcome> {
      return db.transaction(async (tx) => {
        const admins = await tx
          .select({ id: users.id, username: users.username })
          .from(users)
          .where(eq(users.role, 'admin'))
          .orderBy(users.id)
          .for('update');
        const [target] = await tx
          .select()
          .from(users)
          .where(eq(users.id, targetId))
          .limit(1)
          .for('update');
        if (!target) {
          return { kind: 'not-found' };
        }
        const newRole = change.action === 'role-change' ? change.role : null;
        const isChanged = newRole !== target.role;
        if (target.id === actorId && isChanged) {
          return { kind: 'self' };
        }
        const isRemovingAdmin = target.role === 'admin' && newRole !== 'admin';
        if (isRemovingAdmin && !admins.some((admin) => admin.id !== target.id)) {
          return { kind: 'last-admin' };
        }
        const actor = admins.find((admin) => admin.id === actorId);
        if (!actor) {
          return { kind: 'actor-not-admin' };
        }
        if (!isChanged) {
          return { kind: 'done', user: target, previousRole: target.role, isChanged: false };
        }
        let user = target;
        if (newRole === null) {
          // sessions go with the row (foreign key cascade); the audit entry keeps the name
          await tx.delete(users).where(eq(users.id, target.id));
        } else {
          // setting the role to subscriber grants a subscription, any other role ends the grant
          const grant =
            newRole === 'subscriber'
              ? { grantedAt: new Date(), grantedBy: actor.id }
              : { grantedAt: null, grantedBy: null };
          const [updated] = await tx
            .update(users)
            .set({
              role: newRole,
              subscriptionGrantedAt: grant.grantedAt,
              subscriptionGrantedBy: grant.grantedBy,
              subscriptionGrantEndsAt: null,
            })
            .where(eq(users.id, target.id))
            .returning();
          user = updated ?? { ...target, role: newRole };
        }
        await recordAudit(tx, {
          action: change.action,
          actor,
          target,
          oldValue: target.role,
          newValue: newRole,
        });
        return { kind: 'done', user, previousRole: target.role, isChanged: true };
      });
    },
  };
}

export type AdminRepo = ReturnType<typeof createAdminRepo>;
