import { and, eq, isNull, lt } from 'drizzle-orm';

import type { Role } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { stripeEvents, users } from '../../db/schema.js';
import {
  type IncomingSubscription,
  isGrantActive,
  roleAfterStatus,
  shouldApply,
} from './subscription-state.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long handled event ids are kept: Stripe retries a delivery for up to three days. */
export const STRIPE_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface BillingRow {
  userId: string;
  username: string;
  email: string | null;
  role: Role;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  status: string | null;
  startDate: Date | null;
  endDate: Date | null;
  cancelAtPeriodEnd: boolean;
  stateAt: Date | null;
  grantedAt: Date | null;
  grantEndsAt: Date | null;
}

/** What applying a subscription state did to its user. */
export interface ApplyResult {
  userId: string | undefined;
  applied: boolean;
  /** The new role when it changed. */
  roleChangedTo: Role | undefined;
}

const billingColumns = {
  userId: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  stripeCustomerId: users.stripeCustomerId,
  stripeSubscriptionId: users.stripeSubscriptionId,
  status: users.subscriptionStatus,
  startDate: users.subscriptionStartDate,
  endDate: users.subscriptionEndDate,
  cancelAtPeriodEnd: users.subscriptionCancelAtPeriodEnd,
  stateAt: users.subscriptionStateAt,
  grantedAt: users.subscriptionGrantedAt,
  grantEndsAt: users.subscriptionGrantEndsAt,
};

/**
 * The subscription fields of the users table, and the role they lead to. The role is written here
 * (not through the users repo) because it must change in the same transaction as the status.
 */
export function createSubscriptionRepo(db: Db) {
  async function lockUser(executor: Db, where: ReturnType<typeof eq>) {
    const [row] = await executor
      .select(billingColumns)
      .from(users)
      .where(where)
      .limit(1)
      .for('update');
    return row;
  }

  /** The user a subscription belongs to: by the stored customer id, else by metadata.userId. */
  async function lockOwner(
    executor: Db,
    incoming: IncomingSubscription,
  ): Promise<BillingRow | undefined> {
    const byCustomer = await lockUser(executor, eq(users.stripeCustomerId, incoming.customerId));
    if (byCustomer) {
      return byCustomer;
    }
    if (incoming.userIdHint && UUID_PATTERN.test(incoming.userIdHint)) {
      return lockUser(executor, eq(users.id, incoming.userIdHint));
    }
    return undefined;
  }

  async function applyWith(executor: Db, incoming: IncomingSubscription): Promise<ApplyResult> {
    const owner = await lockOwner(executor, incoming);
    if (!owner) {
      return { userId: undefined, applied: false, roleChangedTo: undefined };
    }
    const stored = {
      subscriptionId: owner.stripeSubscriptionId,
      status: owner.status,
      stateAt: owner.stateAt,
    };
    if (!shouldApply(stored, incoming)) {
      return { userId: owner.userId, applied: false, roleChangedTo: undefined };
    }
    // an admin's grant is kept apart: Stripe's news changes Stripe's fields, never the grant
    const isGranted = isGrantActive({ grantedAt: owner.grantedAt, endsAt: owner.grantEndsAt });
    const role = roleAfterStatus(owner.role, incoming.status, isGranted);
    await executor
      .update(users)
      .set({
        role,
        subscriptionStatus: incoming.status,
        subscriptionStartDate: incoming.startDate,
        subscriptionEndDate: incoming.endDate,
        subscriptionCancelAtPeriodEnd: incoming.cancelAtPeriodEnd,
        stripeSubscriptionId: incoming.subscriptionId,
        subscriptionStateAt: incoming.asOf,
        // a subscription found through metadata links its customer to the user
        ...(owner.stripeCustomerId === null ? { stripeCustomerId: incoming.customerId } : {}),
      })
      .where(eq(users.id, owner.userId));
    return {
      userId: owner.userId,
      applied: true,
      roleChangedTo: role === owner.role ? undefined : role,
    };
  }

  return {
    async findBilling(userId: string): Promise<BillingRow | undefined> {
      const [row] = await db.select(billingColumns).from(users).where(eq(users.id, userId));
      return row;
    },

    /**
     * Links a Stripe customer to a user that has none; returns the customer id the user has
     * afterwards (another request may have linked one first).
     */
    async linkCustomer(userId: string, customerId: string): Promise<string | undefined> {
      await db
        .update(users)
        .set({ stripeCustomerId: customerId })
        .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)));
      const [row] = await db
        .select({ customerId: users.stripeCustomerId })
        .from(users)
        .where(eq(users.id, userId));
      return row?.customerId ?? undefined;
    },

    /** Stores a subscription state read from Stripe's API, if it is newer than what is stored. */
    apply(incoming: IncomingSubscription): Promise<ApplyResult> {
      return db.transaction((tx) => applyWith(tx, incoming));
    },

    /**
     * Handles one webhook event exactly once: its id is recorded in the same transaction as its
     * effect, so a redelivery finds it and does nothing, and a failure leaves no trace (Stripe
     * delivers it again).
     */
    async handleEventOnce(
      event: { id: string; type: string },
      incoming: IncomingSubscription | undefined,
    ): Promise<{ isDuplicate: boolean; result: ApplyResult | undefined }> {
      return db.transaction(async (tx) => {
        const recorded = await tx
          .insert(stripeEvents)
          .values({ id: event.id, type: event.type })
          .onConflictDoNothing()
          .returning({ id: stripeEvents.id });
        if (recorded.length === 0) {
          return { isDuplicate: true, result: undefined };
        }
        return {
          isDuplicate: false,
          result: incoming ? await applyWith(tx, incoming) : undefined,
        };
      });
    },

    /** Forgets handled event ids older than the retention (Stripe stopped retrying them long ago). */
    async pruneEvents(now: Date): Promise<void> {
      await db
        .delete(stripeEvents)
        .where(lt(stripeEvents.receivedAt, new Date(now.getTime() - STRIPE_EVENT_RETENTION_MS)));
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
