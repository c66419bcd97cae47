import { and, eq, isNotNull, lte } from 'drizzle-orm';

import type { Role } from '@portfolio/types';
import { isHeldSubscriptionStatus } from '@portfolio/types/subscription';

import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { revokeTokensOf } from '../../access/api-tokens.js';
import { isGrantActive } from '../subscription/index.js';
import { type Actor, recordAudit } from '../../access/audit.js';
import { isoOrNull } from './present.js';
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

export type GrantEndOutcome =
  | { kind: 'not-found' }
  /** The user holds no subscription an admin granted (or it has ended). */
  | { kind: 'no-grant'; username: string }
  /** The end is set; the grant began then. */
  | { kind: 'done'; grantedAt: Date };

/** A user's row, locked for the rest of the transaction. */
async function lockUser(tx: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
  return row;
}

/** A role change or deletion by an admin, with its audit entry (see createAdminRepo). */
async function applyAdminChange(
  db: Db,
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
    const target = await lockUser(tx, targetId);
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
      if (isRemovingAdmin) {
        // their API tokens end with the role, for good (a later promotion brings none back)
        await revokeTokensOf(tx, target.id, actor, `${target.username} is no longer an admin`);
      }
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
}

/**
 * Role changes and deletions made by admins, each in one transaction with its audit entry. The
 * admins' rows are locked first (in id order), so two admins demoting or deleting each other at
 * once are served one after the other and the second sees the first's result: there is always an
 * admin left. Granted subscriptions' ends (set by an admin, or come) go the same way.
 */
export function createAdminRepo(db: Db) {
  return {
    apply: (actorId: string, targetId: string, change: AdminChange) =>
      applyAdminChange(db, actorId, targetId, change),

    /** Sets or removes the end of a subscription an admin granted, with its audit entry. */
    async setGrantEnd(
      actor: NonNullable<Actor>,
      targetId: string,
      endsAt: Date | null,
      now: Date,
    ): Promise<GrantEndOutcome> {
      return db.transaction(async (tx) => {
        const target = await lockUser(tx, targetId);
        if (!target) {
          return { kind: 'not-found' };
        }
        const grantedAt = target.subscriptionGrantedAt;
        const previousEnd = target.subscriptionGrantEndsAt;
        if (
          target.role !== 'subscriber' ||
          !grantedAt ||
          !isGrantActive({ grantedAt, endsAt: previousEnd }, now)
        ) {
          return { kind: 'no-grant', username: target.username };
        }
        await tx
          .update(users)
          .set({ subscriptionGrantEndsAt: endsAt })
          .where(eq(users.id, target.id));
        await recordAudit(tx, {
          action: 'grant-end',
          actor,
          target,
          oldValue: isoOrNull(previousEnd),
          newValue: isoOrNull(endsAt),
        });
        return { kind: 'done', grantedAt };
      });
    },

    /**
     * Ends the grants whose end has come: the grant is cleared and the role goes back to user
     * (subscriber while Stripe still holds a subscription of theirs), recorded as the system's
     * role change. Returns the users whose role changed.
     */
    async endExpiredGrants(now: Date): Promise<UserRow[]> {
      return db.transaction(async (tx) => {
        const ended = await tx
          .select()
          .from(users)
          .where(
            and(isNotNull(users.subscriptionGrantedAt), lte(users.subscriptionGrantEndsAt, now)),
          )
          .for('update');
        const changed: UserRow[] = [];
        for (const target of ended) {
          const isStripeHeld = isHeldSubscriptionStatus(target.subscriptionStatus);
          const role: Role = target.role === 'subscriber' && !isStripeHeld ? 'user' : target.role;
          const [updated] = await tx
            .update(users)
            .set({
              role,
              subscriptionGrantedAt: null,
              subscriptionGrantedBy: null,
              subscriptionGrantEndsAt: null,
            })
            .where(eq(users.id, target.id))
            .returning();
          if (role !== target.role) {
            await recordAudit(tx, {
              action: 'role-change',
              actor: null,
              target,
              oldValue: target.role,
              newValue: role,
            });
            changed.push(updated ?? { ...target, role });
          }
        }
        return changed;
      });
    },
  };
}

export type AdminRepo = ReturnType<typeof createAdminRepo>;
