import { createHash } from 'node:crypto';

import { badRequest, type HttpError } from '../../../lib/errors.js';
import { moduleLogger } from '../../../lib/logger.js';
import { setBounded } from '../../../lib/memoize.js';
import type { ApplyResult } from '../repo.js';
import { isSignatureError } from '../stripe-client.js';
import { fromStripeSubscription, type IncomingSubscription } from '../subscription-state.js';
import {
  type WebhookEvent,
  parseWebhookEvent,
  signatureTimestamp,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../webhook-event.js';
import {
  announce,
  requireStripe,
  type SubscriptionContext,
  type SubscriptionNotice,
} from '../context.js';

const log = moduleLogger('stripe');

/** A 400 for a signed but malformed event, logged once per body (not once per retry). */
function refuseMalformed(ctx: SubscriptionContext, rawBody: Buffer, problem: string): HttpError {
  const key = createHash('sha256').update(rawBody).digest('base64url');
  if (!ctx.loggedMalformed.has(key)) {
    setBounded(ctx.loggedMalformed, key, true, 256);
    log.warn(`refused a malformed webhook event: ${problem}`);
  }
  return badRequest(`Malformed webhook event: ${problem}`);
}

/** Verifies and handles one webhook delivery; `isDuplicate` for an event already handled. */
export async function handleWebhook(
  ctx: SubscriptionContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ isDuplicate: boolean }> {
  const { stripe, config } = requireStripe(ctx);
  if (!signature) {
    throw badRequest('Missing Stripe-Signature header');
  }
  // Stripe's check refuses signatures older than the tolerance; one dated later is refused
  // here, reading the same `t=` Stripe verifies (the last); none, or not a number, is refused
  const signedAt = signatureTimestamp(signature);
  if (signedAt === undefined || signedAt * 1000 > Date.now() + WEBHOOK_TOLERANCE_SECONDS * 1000) {
    throw badRequest('Invalid webhook signature');
  }
  let json: unknown;
  try {
    json = stripe.webhooks.constructEvent(
      rawBody,
      signature,
      config.webhookSecret,
      WEBHOOK_TOLERANCE_SECONDS,
    );
  } catch (error) {
    if (isSignatureError(error)) {
      throw badRequest('Invalid webhook signature');
    }
    // signed, but not a JSON event
    throw refuseMalformed(ctx, rawBody, 'the body is not a JSON event');
  }
  const parsed = parseWebhookEvent(json, Date.now());
  if (!parsed.ok) {
    throw refuseMalformed(ctx, rawBody, parsed.problem);
  }
  const event = parsed.event;
  const incoming = event.subscription
    ? fromStripeSubscription(event.subscription, event.createdAt)
    : undefined;
  const { isDuplicate, result } = await ctx.repo.handleEventOnce(event, incoming);
  if (incoming && result && !result.userId) {
    log.warn(`${event.type} ${event.id}: no user for ${incoming.subscriptionId}`);
  }
  announce(ctx, result?.userId, result?.roleChangedTo);
  const { notify } = ctx;
  if (!isDuplicate && notify) {
    // queued mail (a row, never SMTP); a failure is logged, Stripe's event stays handled
    for (const notice of noticesOf(event, incoming, result)) {
      await notify(notice).catch((error: unknown) =>
        log.error({ err: error }, `${event.type} ${event.id}: queuing mail failed`),
      );
    }
  }
  if (!isDuplicate && Math.random() < 0.01) {
    await ctx.repo.pruneEvents(new Date());
  }
  return { isDuplicate };
}

/** The notices of one new (not replayed) event. */
function noticesOf(
  event: WebhookEvent,
  incoming: IncomingSubscription | undefined,
  result: ApplyResult | undefined,
): SubscriptionNotice[] {
  const notices: SubscriptionNotice[] = [];
  if (event.type === 'invoice.payment_failed' && event.invoiceCustomerId) {
    notices.push({
      kind: 'payment-failed',
      eventId: event.id,
      customerId: event.invoiceCustomerId,
    });
  }
  const userId = result?.applied ? result.userId : undefined;
  if (!userId) {
    return notices;
  }
  if (result?.roleChangedTo === 'subscriber') {
    notices.push({ kind: 'started', eventId: event.id, userId });
  } else if (result?.roleChangedTo === 'user') {
    notices.push({ kind: 'ended', eventId: event.id, userId });
  }
  if (
    incoming?.cancelAtPeriodEnd &&
    incoming.endDate &&
    result?.roleChangedTo !== 'user' &&
    (incoming.status === 'active' || incoming.status === 'trialing')
  ) {
    notices.push({
      kind: 'ending',
      eventId: event.id,
      userId,
      subscriptionId: incoming.subscriptionId,
      endsAt: incoming.endDate,
    });
  }
  return notices;
}
