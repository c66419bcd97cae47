import { z } from 'zod';

import { describeZodError } from '../../lib/errors.js';

/**
 * How far a webhook's signature time may lie behind us (Stripe's own default) and, here, ahead:
 * a signature dated in the future would stay replayable for as long, and an event dated in the
 * future would win every later ordering decision (`shouldApply` compares `created`).
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const seconds = z.number().int().nonnegative();

/**
 * The fields of a Stripe subscription this site reads (`fromStripeSubscription`). A subscription
 * from Stripe's API (Stripe.Subscription) has this shape too.
 */
export const StripeSubscriptionFields = z.object({
  object: z.literal('subscription'),
  id: z.string().min(1),
  customer: z.union([z.string().min(1), z.object({ id: z.string().min(1) })]),
  status: z.string().min(1),
  metadata: z.record(z.string(), z.string()),
  start_date: seconds.nullish(),
  ended_at: seconds.nullish(),
  cancel_at: seconds.nullish(),
  cancel_at_period_end: z.boolean(),
  items: z.object({ data: z.array(z.object({ current_period_end: seconds })) }),
});
export type StripeSubscriptionFields = z.infer<typeof StripeSubscriptionFields>;

/** The fields of every event the handler reads: id and type (recorded once), its time, its object. */
const StripeEventFields = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: seconds,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const SubscriptionEventData = z.object({ object: StripeSubscriptionFields });

/** A verified webhook event: what it is, when Stripe made it, and the subscription it carries. */
export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: Date;
  /** The subscription of a `customer.subscription.*` event, as it was when the event was made. */
  subscription: StripeSubscriptionFields | undefined;
  /** The customer of an `invoice.*` event (for its mail), when it names one. */
  invoiceCustomerId?: string | undefined;
}

const InvoiceEventData = z.object({
  object: z.object({
    customer: z.union([z.string().min(1), z.object({ id: z.string().min(1) })]),
  }),
});

export type ParsedWebhookEvent = { ok: true; event: WebhookEvent } | { ok: false; problem: string };

/**
 * Checks a signed event's JSON (already parsed) against what the handler reads. Signed does not
 * mean well-formed: an event that is not is refused (400) instead of failing inside the handler.
 */
export function parseWebhookEvent(json: unknown, nowMs: number): ParsedWebhookEvent {
  const parsed = StripeEventFields.safeParse(json);
  if (!parsed.success) {
    return { ok: false, problem: describeZodError(parsed.error) };
  }
  const { id, type, created, data } = parsed.data;
  if (created * 1000 > nowMs + WEBHOOK_TOLERANCE_SECONDS * 1000) {
    return { ok: false, problem: 'created: is in the future' };
  }
  let subscription: StripeSubscriptionFields | undefined;
  if (type.startsWith('customer.subscription.')) {
    const withSubscription = SubscriptionEventData.safeParse(data);
    if (!withSubscription.success) {
      return { ok: false, problem: `data.${describeZodError(withSubscription.error)}` };
    }
    subscription = withSubscription.data.object;
  }
  // an invoice without a customer is nothing this site mails about: not an error
  const invoice = type.startsWith('invoice.') ? InvoiceEventData.safeParse(data) : undefined;
  const customer = invoice?.success ? invoice.data.object.customer : undefined;
  const invoiceCustomerId = typeof customer === 'string' ? customer : customer?.id;
  return {
    ok: true,
    event: { id, type, createdAt: new Date(created * 1000), subscription, invoiceCustomerId },
  };
}

/**
 * The signing time (seconds) of a Stripe-Signature header, read as Stripe's library reads it
 * when it verifies the signature: comma-separated `key=value` items, the key exactly `t`, the
 * last one winning, its value through parseInt. Undefined without one, or when it is not a
 * number. Reading it any other way (the first `t=`) would check one time and verify another.
 */
export function signatureTimestamp(header: string): number | undefined {
  let timestamp: number | undefined;
  for (const item of header.split(',')) {
    const [key, value = ''] = item.split('=');
    if (key === 't') {
      timestamp = parseInt(value, 10);
    }
  }
  return timestamp === undefined || Number.isNaN(timestamp) ? undefined : timestamp;
}
