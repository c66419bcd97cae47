import { type Role } from '@portfolio/types';
import { isHeldSubscriptionStatus, type SubscriptionStatus } from '@portfolio/types/subscription';

import type { StripeSubscriptionFields } from './webhook-event.js';

/** A Stripe subscription as this site stores it, with the Stripe time it was true at. */
export interface IncomingSubscription {
  subscriptionId: string;
  customerId: string;
  /** `metadata.userId`, set when the subscription was created here. */
  userIdHint: string | undefined;
  status: string;
  startDate: Date | null;
  /** End of the current period (next payment), or when the subscription ended or will end. */
  endDate: Date | null;
  cancelAtPeriodEnd: boolean;
  /** Stripe's clock: the event's `created`, or the Date of the API answer it came in. */
  asOf: Date;
}

/** What is stored about a user's subscription, as far as ordering decisions need it. */
export interface StoredSubscription {
  subscriptionId: string | null;
  status: string | null;
  stateAt: Date | null;
}

const fromSeconds = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

/**
 * Reads the fields this site keeps from a Stripe subscription. Since API version 2025-03-31 the
 * current period lives on the subscription items, not on the subscription.
 */
export function fromStripeSubscription(
  subscription: StripeSubscriptionFields,
  asOf: Date,
): IncomingSubscription {
  const periodEnds = subscription.items.data.map((item) => item.current_period_end);
  const periodEnd = periodEnds.length > 0 ? Math.max(...periodEnds) : null;
  // ended, else ending at the period's end, else a set cancel date, else the next renewal
  const endsAt =
    subscription.ended_at ??
    (subscription.cancel_at_period_end ? periodEnd : null) ??
    subscription.cancel_at ??
    periodEnd;
  const customer = subscription.customer;
  const userId = subscription.metadata.userId;
  return {
    subscriptionId: subscription.id,
    customerId: typeof customer === 'string' ? customer : customer.id,
    userIdHint: typeof userId === 'string' && userId.length > 0 ? userId : undefined,
    status: subscription.status,
    startDate: fromSeconds(subscription.start_date),
    endDate: fromSeconds(endsAt),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    asOf,
  };
}

/** Whether an admin's grant holds at `now`: granted, and without an end or before it. */
export function isGrantActive(
  grant: { grantedAt: Date | null; endsAt: Date | null },
  now = new Date(),
): boolean {
  return grant.grantedAt !== null && (grant.endsAt === null || grant.endsAt > now);
}

/**
 * The role a status leads to: active or trialing → subscriber; canceled, unpaid,
 * incomplete_expired or paused (no payment is being collected) → user; incomplete and past_due
 * leave the role as it is. An admin stays admin whatever happens to their subscription, and a
 * subscriber an admin granted the subscription to stays subscriber while the grant holds.
 */
export function roleAfterStatus(current: Role, status: string, isGranted = false): Role {
  if (current === 'admin') {
    return current;
  }
  if (isGranted) {
    return 'subscriber';
  }
  switch (status as SubscriptionStatus) {
    case 'active':
    case 'trialing':
      return 'subscriber';
    case 'canceled':
    case 'unpaid':
    case 'incomplete_expired':
    case 'paused':
      return 'user';
    default:
      return current;
  }
}

/**
 * How far along the lifecycle a status is. Stripe's event times have one-second resolution:
 * of two states of the same second, the one further along is taken as the newer.
 */
const STATUS_RANK: Readonly<Record<string, number>> = {
  incomplete: 0,
  trialing: 1,
  active: 2,
  past_due: 3,
  unpaid: 4,
  paused: 4,
  canceled: 5,
  incomplete_expired: 5,
};
const rank = (status: string | null) => (status ? (STATUS_RANK[status] ?? 0) : -1);

const grantsAccess = (status: string) => status === 'active' || status === 'trialing';

/**
 * Whether an incoming state may replace the stored one. For the stored subscription: only when it
 * is newer by Stripe's clock (ties go to the state further along), so a late or redelivered older
 * event never wins. Another subscription (a new checkout after a failed or ended one) takes over
 * when it is not older and the stored one is no longer held, or when it grants access; an old
 * subscription's late news never replaces one the user still holds.
 */
export function shouldApply(stored: StoredSubscription, incoming: IncomingSubscription): boolean {
  const storedAt = stored.stateAt?.getTime();
  const incomingAt = incoming.asOf.getTime();
  if (stored.subscriptionId === null || storedAt === undefined) {
    return true;
  }
  if (stored.subscriptionId === incoming.subscriptionId) {
    if (incomingAt !== storedAt) {
      return incomingAt > storedAt;
    }
    return rank(incoming.status) >= rank(stored.status);
  }
  if (incomingAt < storedAt) {
    return false;
  }
  return !isHeldSubscriptionStatus(stored.status) || grantsAccess(incoming.status);
}
