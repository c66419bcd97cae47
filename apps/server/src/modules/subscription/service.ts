import { createHash } from 'node:crypto';

import type Stripe from 'stripe';

import { type CurrentUser } from '@portfolio/types';
import {
  type CreateSubscriptionResponse,
  isHeldSubscriptionStatus,
  type PaymentsConfig,
  type SubscriptionState,
} from '@portfolio/types/subscription';

import type { StripeConfig } from '../../config.js';
import { badRequest, conflict, HttpError } from '../../lib/errors.js';
import type { DomainEventBus } from '../../lib/events.js';
import { setBounded } from '../../lib/memoize.js';
import type { ApplyResult, BillingRow, SubscriptionRepo } from './repo.js';
import { isSignatureError, paymentsNotConfigured, toPaymentError } from './stripe-client.js';
import { fromStripeSubscription, type IncomingSubscription } from './subscription-state.js';
import {
  type WebhookEvent,
  parseWebhookEvent,
  signatureTimestamp,
  WEBHOOK_TOLERANCE_SECONDS,
} from './webhook-event.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('stripe');

export interface SubscriptionService {
  getPaymentsConfig(): PaymentsConfig;
  getState(userId: string): Promise<SubscriptionState>;
  /** Starts a subscription; the browser confirms the first payment with the client secret. */
  createSubscription(
    user: CurrentUser,
    input: { paymentMethodId: string; cancelAtPeriodEnd: boolean },
  ): Promise<CreateSubscriptionResponse>;
  /** Reads the user's subscription from Stripe (right after checkout, before the webhook). */
  sync(userId: string): Promise<{ role: CurrentUser['role']; subscription: SubscriptionState }>;
  /** A Stripe customer portal session (cancel, change card) that returns to `returnUrl`. */
  createPortalSession(userId: string, returnUrl: string): Promise<string>;
  /** Verifies and handles one webhook delivery; `isDuplicate` for an event already handled. */
  handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ isDuplicate: boolean }>;
}

/** Stripe's clock for an API answer: its Date header (seconds), else ours. */
function answeredAt(response: { lastResponse?: { headers: Record<string, string> } }): Date {
  const date = response.lastResponse?.headers.date;
  const parsed = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(parsed) ? new Date() : new Date(parsed);
}

function toState(row: BillingRow, isConfigured: boolean): SubscriptionState {
  return {
    status: row.status,
    startDate: row.startDate?.toISOString() ?? null,
    endDate: row.endDate?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canManage: isConfigured && row.stripeCustomerId !== null,
  };
}

export function createSubscriptionService(deps: {
  stripe: Stripe | undefined;
  config: StripeConfig | undefined;
  repo: SubscriptionRepo;
  events: DomainEventBus;
  /** Mail that matters to a subscriber; called once per new event. */
  notify?: (notice: SubscriptionNotice) => Promise<void>;
}): SubscriptionService {
  const { repo, events } = deps;

  function requireStripe(): { stripe: Stripe; config: StripeConfig } {
    if (!deps.stripe || !deps.config) {
      throw paymentsNotConfigured();
    }
    return { stripe: deps.stripe, config: deps.config };
  }

  async function requireBilling(userId: string): Promise<BillingRow> {
    const row = await repo.findBilling(userId);
    if (!row) {
      throw new HttpError('UNAUTHORIZED', 'Authentication required');
    }
    return row;
  }

  /** Stores a state and tells every process when the user's role changed. */
  async function store(incoming: IncomingSubscription) {
    const result = await repo.apply(incoming);
    announce(result.userId, result.roleChangedTo);
    return result;
  }

  function announce(userId: string | undefined, role: CurrentUser['role'] | undefined) {
    if (userId && role) {
      // drops the user's cached sessions in every process: the next request sees the new role
      events.emit('user:role-changed', { userId, role });
    }
  }

  async function call<T>(step: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toPaymentError(error, step);
    }
  }

  async function ensureCustomer(stripe: Stripe, billing: BillingRow): Promise<string> {
    if (billing.stripeCustomerId) {
      return billing.stripeCustomerId;
    }
    const customer = await call('customer', () =>
      stripe.customers.create(
        {
          name: billing.username,
          ...(billing.email ? { email: billing.email } : {}),
          metadata: { userId: billing.userId },
        },
        // two checkouts at once make one customer
        { idempotencyKey: `customer-${billing.userId}` },
      ),
    );
    const linked = await repo.linkCustomer(billing.userId, customer.id);
    return linked ?? customer.id;
  }

  /**
   * A checkout abandoned half-way (a declined first payment) leaves an incomplete subscription:
   * end it before making a new one. The same card again is a repeated submit, which the
   * idempotency key answers with that same subscription, so it is left alone.
   */
  async function cancelAbandoned(stripe: Stripe, billing: BillingRow, paymentMethodId: string) {
    const subscriptionId = billing.stripeSubscriptionId;
    if (billing.status !== 'incomplete' || !subscriptionId) {
      return;
    }
    try {
      const abandoned = await stripe.subscriptions.retrieve(subscriptionId);
      const method = abandoned.default_payment_method;
      const methodId = typeof method === 'string' ? method : method?.id;
      if (abandoned.status === 'incomplete' && methodId !== paymentMethodId) {
        await stripe.subscriptions.cancel(subscriptionId);
      }
    } catch (error) {
      // it may have expired meanwhile; the new checkout goes on either way
      log.warn({ err: error }, 'could not cancel an incomplete subscription');
    }
  }

  // bodies of malformed events already logged: Stripe retries a refused delivery for days
  const loggedMalformed = new Map<string, true>();
  /** A 400 for a signed but malformed event, logged once per body (not once per retry). */
  function refuseMalformed(rawBody: Buffer, problem: string): HttpError {
    const key = createHash('sha256').update(rawBody).digest('base64url');
    if (!loggedMalformed.has(key)) {
      setBounded(loggedMalformed, key, true, 256);
      log.warn(`refused a malformed webhook event: ${problem}`);
    }
    return badRequest(`Malformed webhook event: ${problem}`);
  }

  return {
    getPaymentsConfig: () => ({ publishableKey: deps.config?.publishableKey ?? null }),

    async getState(userId) {
      return toState(await requireBilling(userId), deps.config !== undefined);
    },

    async createSubscription(user, input) {
      const { stripe, config } = requireStripe();
      const billing = await requireBilling(user.id);
      if (isHeldSubscriptionStatus(billing.status)) {
        throw conflict('You already have a subscription. Manage it from your profile.');
      }
      const customerId = await ensureCustomer(stripe, billing);
      await call('attach', () =>
        stripe.paymentMethods.attach(
          input.paymentMethodId,
          { customer: customerId },
          { idempotencyKey: `attach-${input.paymentMethodId}-${customerId}` },
        ),
      );
      await cancelAbandoned(stripe, billing, input.paymentMethodId);
      const subscription = await call('subscription', () =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: config.priceId }],
            default_payment_method: input.paymentMethodId,
            cancel_at_period_end: input.cancelAtPeriodEnd,
            payment_behavior: 'default_incomplete',
            payment_settings: {
              payment_method_types: ['card'],
              save_default_payment_method: 'on_subscription',
            },
            metadata: { userId: user.id },
            // since API 2025-03-31 the first payment's secret is on the invoice, not a PaymentIntent
            expand: ['latest_invoice.confirmation_secret'],
          },
          // a double submit of the same card makes one subscription
          {
            idempotencyKey: `subscription-${user.id}-${input.paymentMethodId}-${input.cancelAtPeriodEnd}`,
          },
        ),
      );
      await store(fromStripeSubscription(subscription, answeredAt(subscription)));
      const invoice = subscription.latest_invoice;
      const clientSecret =
        invoice && typeof invoice === 'object'
          ? (invoice.confirmation_secret?.client_secret ?? null)
          : null;
      if (clientSecret === null && subscription.status === 'incomplete') {
        log.error('an incomplete subscription came without a confirmation secret');
        throw new HttpError(
          'PAYMENT_PROVIDER_ERROR',
          'The payment provider refused the request. Please try again later.',
        );
      }
      return { clientSecret, status: subscription.status };
    },

    async sync(userId) {
      const { stripe } = requireStripe();
      const billing = await requireBilling(userId);
      if (billing.stripeSubscriptionId) {
        const subscriptionId = billing.stripeSubscriptionId;
        const subscription = await call('sync', () =>
          stripe.subscriptions.retrieve(subscriptionId),
        );
        await store(fromStripeSubscription(subscription, answeredAt(subscription)));
      }
      const after = await requireBilling(userId);
      return { role: after.role, subscription: toState(after, true) };
    },

    async createPortalSession(userId, returnUrl) {
      const { stripe } = requireStripe();
      const billing = await requireBilling(userId);
      if (!billing.stripeCustomerId) {
        throw conflict('There is no subscription to manage yet.');
      }
      const customer = billing.stripeCustomerId;
      const session = await call('portal', () =>
        stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }),
      );
      return session.url;
    },

    async handleWebhook(rawBody, signature) {
      const { stripe, config } = requireStripe();
      if (!signature) {
        throw badRequest('Missing Stripe-Signature header');
      }
      // Stripe's check refuses signatures older than the tolerance; one dated later is refused
      // here, reading the same `t=` Stripe verifies (the last); none, or not a number, is refused
      const signedAt = signatureTimestamp(signature);
      if (
        signedAt === undefined ||
        signedAt * 1000 > Date.now() + WEBHOOK_TOLERANCE_SECONDS * 1000
      ) {
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
        throw refuseMalformed(rawBody, 'the body is not a JSON event');
      }
      const parsed = parseWebhookEvent(json, Date.now());
      if (!parsed.ok) {
        throw refuseMalformed(rawBody, parsed.problem);
      }
      const event = parsed.event;
      const incoming = event.subscription
        ? fromStripeSubscription(event.subscription, event.createdAt)
        : undefined;
      const { isDuplicate, result } = await repo.handleEventOnce(event, incoming);
      if (incoming && result && !result.userId) {
        log.warn(`${event.type} ${event.id}: no user for ${incoming.subscriptionId}`);
      }
      announce(result?.userId, result?.roleChangedTo);
      const { notify } = deps;
      if (!isDuplicate && notify) {
        // queued mail (a row, never SMTP); a failure is logged, Stripe's event stays handled
        for (const notice of noticesOf(event, incoming, result)) {
          await notify(notice).catch((error: unknown) =>
            log.error({ err: error }, `${event.type} ${event.id}: queuing mail failed`),
          );
        }
      }
      if (!isDuplicate && Math.random() < 0.01) {
        await repo.pruneEvents(new Date());
      }
      return { isDuplicate };
    },
  };
}

/** What a webhook event means for the subscriber's mailbox. */
export type SubscriptionNotice =
  | { kind: 'payment-failed'; eventId: string; customerId: string }
  | { kind: 'started' | 'ended'; eventId: string; userId: string }
  | { kind: 'ending'; eventId: string; userId: string; subscriptionId: string; endsAt: Date };

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
