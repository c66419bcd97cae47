import { z } from 'zod';

import { CurrentUser } from './auth.js';

/** The statuses Stripe gives a subscription. Stored as Stripe sends them. */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export function isSubscriptionStatus(value: unknown): value is SubscriptionStatus {
  return typeof value === 'string' && (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

/**
 * Statuses of a subscription the user still holds: a new checkout is refused while one of these
 * is stored (past_due is still theirs; they fix the card in the customer portal).
 */
export const HELD_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = [
  'trialing',
  'active',
  'past_due',
];

/** Whether a stored status is one of the HELD_SUBSCRIPTION_STATUSES (none is not). */
export function isHeldSubscriptionStatus(status: string | null | undefined): boolean {
  return (
    status !== null &&
    status !== undefined &&
    (HELD_SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
  );
}

export type SubscriptionStatusTone = 'orange' | 'red' | 'green' | 'gray';

/**
 * The spec's status badge (section 4): label and colour for a stored subscription status.
 * Unknown statuses are shown as they are; none at all (a user who never subscribed) is 'None'.
 */
export function describeSubscriptionStatus(status: string | null | undefined): {
  label: string;
  tone: SubscriptionStatusTone;
} {
  switch (status) {
    case 'incomplete':
    case 'pending':
      return { label: 'Pending', tone: 'orange' };
    case 'incomplete_expired':
      return { label: 'Inactive', tone: 'red' };
    case 'trialing':
    case 'active':
      return { label: 'Active', tone: 'green' };
    case 'past_due':
      return { label: 'Past Due', tone: 'red' };
    case 'canceled':
      return { label: 'Canceled', tone: 'gray' };
    case 'unpaid':
      return { label: 'Unpaid', tone: 'red' };
    default:
      return { label: status ? status : 'None', tone: 'gray' };
  }
}

/** A subscription an admin granted, as the profile and the admin's user detail carry it. */
export interface GrantedSubscription {
  granted_at: string;
  /** Null for a grant without an end. */
  ends_at: string | null;
}

/** What a Subscription Details card shows: Stripe's subscription, else an admin's grant. */
export interface SubscriptionView {
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  isGrantedByAdmin: boolean;
}

/**
 * The subscription to show: Stripe's while the user holds one there (active, trialing or past
 * due), else an admin's grant as an active subscription from the day it was granted, else
 * Stripe's last state (canceled, incomplete, …) or none.
 */
export function viewSubscription(input: {
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  grant?: GrantedSubscription | null | undefined;
}): SubscriptionView {
  const { status, startDate, endDate, grant } = input;
  const isStripeHeld = isHeldSubscriptionStatus(status);
  if (grant && !isStripeHeld) {
    return {
      status: 'active',
      startDate: grant.granted_at,
      endDate: grant.ends_at,
      isGrantedByAdmin: true,
    };
  }
  return { status, startDate, endDate, isGrantedByAdmin: false };
}

/** A Stripe PaymentMethod id as Stripe.js returns it ('pm_…'). */
export const PaymentMethodId = z
  .string()
  .max(255, 'is too long')
  .regex(/^pm_[A-Za-z0-9_]+$/, 'must be a card payment method id (pm_…)');

/** POST /api/create-subscription (spec section 7). */
export const CreateSubscriptionRequest = z.object({
  paymentMethodId: PaymentMethodId,
  cancelAtPeriodEnd: z.boolean().default(false),
});
export type CreateSubscriptionRequest = z.input<typeof CreateSubscriptionRequest>;

/**
 * The browser confirms the first payment with `clientSecret`; null when nothing is left to pay
 * (the subscription is already active).
 */
export const CreateSubscriptionResponse = z.object({
  clientSecret: z.string().nullable(),
  status: z.string(),
});
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;

/** GET /api/subscription/config: what the checkout page needs; null key = payments are off. */
export const PaymentsConfig = z.object({ publishableKey: z.string().nullable() });
export type PaymentsConfig = z.infer<typeof PaymentsConfig>;

/** GET /api/subscription: the signed-in user's subscription as stored from Stripe. */
export const SubscriptionState = z.object({
  status: z.string().nullable(),
  startDate: z.iso.datetime().nullable(),
  /** End of the current period: the next payment date, or the end date once cancelled. */
  endDate: z.iso.datetime().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** Whether the customer portal can be opened (the user has a Stripe customer). */
  canManage: z.boolean(),
});
export type SubscriptionState = z.infer<typeof SubscriptionState>;

/** POST /api/subscription/sync: the state read again from Stripe, and the user's role after it. */
export const SubscriptionSyncResponse = z.object({
  user: CurrentUser,
  subscription: SubscriptionState,
});
export type SubscriptionSyncResponse = z.infer<typeof SubscriptionSyncResponse>;

/** POST /api/subscription/portal: the Stripe customer portal to send the browser to. */
export const PortalSessionResponse = z.object({ url: z.url() });
export type PortalSessionResponse = z.infer<typeof PortalSessionResponse>;
