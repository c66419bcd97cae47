import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import Stripe from 'stripe';

/**
 * A small fake of the Stripe API for tests (never part of the product): the real `stripe` SDK is
 * pointed at it with its host/port/protocol options, and a browser's Stripe.js stub reaches it
 * through request routing. It keeps customers, payment methods, subscriptions, invoices and
 * payment intents in memory, honours idempotency keys, and sends signed webhook events the way
 * Stripe does. Test cards follow Stripe's test mode: 4242… (pm_card_visa) pays; 4000…0002
 * (pm_card_chargeDeclined) is declined when attached; 4000…0341 (pm_card_chargeCustomerFail)
 * attaches but its payment is declined.
 */

type Json = Record<string, unknown>;
type CardBehaviour = 'pays' | 'declined-on-attach' | 'declined-on-payment';

interface FakePaymentMethod {
  id: string;
  customer: string | null;
  behaviour: CardBehaviour;
  last4: string;
}

interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  priceId: string;
  created: number;
  startDate: number;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  endedAt: number | null;
  metadata: Record<string, string>;
  defaultPaymentMethod: string | null;
  latestInvoice: string;
}

interface FakeInvoice {
  id: string;
  subscription: string;
  paymentIntent: string;
  status: string;
}

interface FakePaymentIntent {
  id: string;
  clientSecret: string;
  invoice: string;
  status: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: Json;
}

export interface FakeStripeOptions {
  /** Where events are posted (also settable later with `setWebhookUrl`). */
  webhookUrl?: string;
  /** The secret events are signed with; a random one when not given. */
  webhookSecret?: string;
  /** Post every event as it happens (as Stripe does); otherwise tests deliver them by hand. */
  autoDeliver?: boolean;
  port?: number;
}

export const FAKE_PRICE_ID = 'price_fake_quarterly';
const TEST_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': 'pays',
  '4000000000000002': 'declined-on-attach',
  '4000000000000341': 'declined-on-payment',
};
const MAGIC_PAYMENT_METHODS: Record<string, CardBehaviour> = {
  pm_card_visa: 'pays',
  pm_card_chargeDeclined: 'declined-on-attach',
  pm_card_chargeCustomerFail: 'declined-on-payment',
};

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(typeof body.message === 'string' ? body.message : 'stripe error');
  }
}

const noSuch = (kind: string, id: string, param?: string) =>
  new StripeFailure(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });
const cardDeclined = () =>
  new StripeFailure(402, {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  });

/** Parses Stripe's form encoding (`items[0][price]=x`, `expand[0]=y`) into nested objects. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const [head = '', ...rest] = rawKey.split('[').map((part) => part.replace(/]$/, ''));
    const keys = [head, ...rest];
    let node: Json = root;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (typeof next === 'object' && next !== null) {
        node = next as Json;
      } else {
        const created: Json = {};
        node[key] = created;
        node = created;
      }
    });
  }
  return root;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
const list = (value: unknown): string[] =>
  typeof value === 'object' && value !== null
    ? Object.values(value).filter((item): item is string => typeof item === 'string')
    : [];

function addMonths(seconds: number, months: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + months);
  return Math.floor(date.getTime() / 1000);
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  /** Every event made, in order; `deliveries` holds the webhook answers. */
  readonly events: Stripe.Event[] = [];
  readonly deliveries: Array<{ eventId: string; status: number }> = [];
  /** The secret key the server must use, and the publishable key Stripe.js sends. */
  readonly secretKey = 'sk_test_fake_secret';
  readonly publishableKey = 'pk_test_fake_publishable';
  readonly webhookSecret: string;

  private server: Server | undefined;
  private clockOffset = 0;
  private sequence = 0;
  private pending = new Set<Promise<void>>();
  private readonly signer = new Stripe('sk_test_fake_signer');
  private readonly customers = new Map<string, Json>();
  private readonly paymentMethods = new Map<string, FakePaymentMethod>();
  private readonly subscriptions = new Map<string, FakeSubscription>();
  private readonly invoices = new Map<string, FakeInvoice>();
  private readonly paymentIntents = new Map<string, FakePaymentIntent>();
  private readonly idempotent = new Map<string, { body: string; status: number; answer: Json }>();

  constructor(private readonly options: FakeStripeOptions = {}) {
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
    this.webhookUrl = options.webhookUrl;
  }

  private webhookUrl: string | undefined;

  /** Where events go from now on (the server's URL is known only once it listens). */
  setWebhookUrl(url: string): void {
    this.webhookUrl = url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) {
      throw new Error('fake Stripe is not listening');
    }
    return `http://127.0.0.1:${address.port}`;
  }

  /** Environment for a server that should use this fake. */
  serverEnv(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_PUBLISHABLE_KEY: this.publishableKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_PRICE_ID: FAKE_PRICE_ID,
      STRIPE_API_URL: this.url,
    };
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void this.serve(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    await this.settle();
    await new Promise<void>((resolve) => {
      if (!this.server) {
        resolve();
        return;
      }
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Stripe's clock, in seconds; `advance` moves it on. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  advance(seconds: number): void {
    this.clockOffset += seconds;
  }

  /** Waits for webhook deliveries under way. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.all([...this.pending]);
    }
  }

  subscription(id: string): FakeSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) {
      throw new Error(`no subscription ${id}`);
    }
    return subscription;
  }

  subscriptionsOf(customerId: string): FakeSubscription[] {
    return [...this.subscriptions.values()].filter((item) => item.customer === customerId);
  }

  /** A new card payment method, as Stripe.js makes one from the card form. */
  createTestPaymentMethod(number = '4242424242424242'): string {
    return String(this.createPaymentMethod({ card: { number } }).id);
  }

  /** The browser's confirmation of a first payment (what Stripe.js does with the client secret). */
  confirmPayment(clientSecret: string, paymentMethodId?: string): Json {
    const intent = [...this.paymentIntents.values()].find(
      (item) => item.clientSecret === clientSecret,
    );
    if (!intent) {
      throw new Error('unknown client secret');
    }
    return this.confirmIntent(intent.id, {
      client_secret: clientSecret,
      payment_method: paymentMethodId,
    });
  }

  /** Moves a subscription to a status as Stripe's billing would (renewal failed, cancelled, …). */
  setStatus(subscriptionId: string, status: string, changes: Partial<FakeSubscription> = {}) {
    const subscription = this.subscription(subscriptionId);
    Object.assign(subscription, changes, { status });
    if (status === 'canceled' || status === 'incomplete_expired') {
      subscription.endedAt ??= this.now();
      subscription.canceledAt ??= this.now();
    }
    return this.emit(
      status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      this.subscriptionJson(subscription),
    );
  }

  /** Makes an event (Stripe's shape, this fake's clock) and delivers it if auto-delivery is on. */
  emit(type: string, object: Json): Stripe.Event {
    const event = {
      id: `evt_${this.nextId()}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    } as unknown as Stripe.Event;
    this.events.push(event);
    if (this.options.autoDeliver && this.webhookUrl) {
      const delivery = this.deliver(event).then(() => undefined);
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
    return event;
  }

  /** The body and Stripe-Signature header of an event, as Stripe would post it. */
  signed(event: Stripe.Event, secret = this.webhookSecret): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    return {
      payload,
      signature: this.signer.webhooks.generateTestHeaderString({ payload, secret }),
    };
  }

  /** Posts an event to the webhook URL; returns the answer's status. */
  async deliver(event: Stripe.Event, url = this.webhookUrl): Promise<number> {
    if (!url) {
      throw new Error('no webhook URL');
    }
    const { payload, signature } = this.signed(event);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    });
    await response.text();
    this.deliveries.push({ eventId: event.id, status: response.status });
    return response.status;
  }

  private nextId(): string {
    this.sequence += 1;
    return `${this.sequence.toString().padStart(4, '0')}${randomBytes(6).toString('hex')}`;
  }

  private async serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = { ...Object.fromEntries(url.searchParams), ...parseStripeForm(raw) };
    const method = req.method ?? 'GET';
    const idempotencyKey = text(req.headers['idempotency-key']);
    this.requests.push({ method, path: url.pathname, idempotencyKey, body });
    const answer = (status: number, json: Json) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        date: new Date(this.now() * 1000).toUTCString(),
        'request-id': `req_${this.nextId()}`,
        'stripe-version': Stripe.API_VERSION,
        // Stripe.js calls from the page's origin
        'access-control-allow-origin': '*',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      });
      res.end(JSON.stringify(json));
    };
    const auth = text(req.headers.authorization);
    const key = auth?.replace(/^Bearer /, '') ?? text(body.key);
    if (key !== this.secretKey && key !== this.publishableKey) {
      answer(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
      return;
    }
    if (idempotencyKey && method === 'POST') {
      const earlier = this.idempotent.get(idempotencyKey);
      if (earlier) {
        if (earlier.body !== raw) {
          answer(400, {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          });
          return;
        }
        answer(earlier.status, earlier.answer);
        return;
      }
    }
    let status = 200;
    let json: Json;
    try {
      json = this.route(method, url.pathname, body, key === this.publishableKey);
    } catch (error) {
      if (!(error instanceof StripeFailure)) {
        throw error;
      }
      status = error.status;
      json = { error: error.body };
    }
    if (idempotencyKey && method === 'POST') {
      this.idempotent.set(idempotencyKey, { body: raw, status, answer: json });
    }
    answer(status, json);
  }

  private route(method: string, path: string, body: Json, isPublishable: boolean): Json {
    const parts = path.split('/').filter(Boolean);
    const [version, resource, id, action] = parts;
    if (version !== 'v1') {
      throw noSuch('route', path);
    }
    // the publishable key may only make payment methods and confirm payments, as in Stripe
    const browserRoutes = resource === 'payment_methods' || resource === 'payment_intents';
    if (isPublishable && !browserRoutes) {
      throw new StripeFailure(401, {
        type: 'invalid_request_error',
        message: 'This API call cannot be made with a publishable API key.',
      });
    }
    if (method === 'POST' && resource === 'customers' && !id) {
      return this.createCustomer(body);
    }
    if (method === 'POST' && resource === 'payment_methods' && !id) {
      return this.createPaymentMethod(body);
    }
    if (method === 'POST' && resource === 'payment_methods' && id && action === 'attach') {
      return this.attach(id, body);
    }
    if (method === 'POST' && resource === 'subscriptions' && !id) {
      return this.createSubscription(body);
    }
    if (method === 'GET' && resource === 'subscriptions' && id) {
      return this.subscriptionJson(this.findSubscription(id), list(body.expand));
    }
    if (method === 'DELETE' && resource === 'subscriptions' && id) {
      const subscription = this.findSubscription(id);
      this.setStatus(id, 'canceled');
      return this.subscriptionJson(subscription);
    }
    if (method === 'POST' && resource === 'payment_intents' && id && action === 'confirm') {
      return this.confirmIntent(id, body);
    }
    if (method === 'POST' && resource === 'billing_portal' && id === 'sessions') {
      const customer = text(body.customer) ?? '';
      if (!this.customers.has(customer)) {
        throw noSuch('customer', customer, 'customer');
      }
      return {
        id: `bps_${this.nextId()}`,
        object: 'billing_portal.session',
        customer,
        return_url: text(body.return_url) ?? null,
        url: `https://billing.stripe.com/p/session/test_${this.nextId()}`,
      };
    }
    throw noSuch('route', `${method} ${path}`);
  }

  private createCustomer(body: Json): Json {
    const customer = {
      id: `cus_${this.nextId()}`,
      object: 'customer',
      created: this.now(),
      email: text(body.email) ?? null,
      name: text(body.name) ?? null,
      metadata: body.metadata ?? {},
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createPaymentMethod(body: Json): Json {
    const card = (body.card ?? {}) as Json;
    const number = (text(card.number) ?? '').replace(/\D/g, '');
    const behaviour = TEST_CARDS[number];
    if (!behaviour) {
      throw new StripeFailure(402, {
        type: 'card_error',
        code: 'incorrect_number',
        param: 'card[number]',
        message: 'Your card number is incorrect.',
      });
    }
    const method: FakePaymentMethod = {
      id: `pm_${this.nextId()}`,
      customer: null,
      behaviour,
      last4: number.slice(-4),
    };
    this.paymentMethods.set(method.id, method);
    return this.paymentMethodJson(method);
  }

  private findPaymentMethod(id: string): FakePaymentMethod {
    const known = this.paymentMethods.get(id);
    if (known) {
      return known;
    }
    const behaviour = MAGIC_PAYMENT_METHODS[id];
    if (!behaviour) {
      throw noSuch('PaymentMethod', id, 'payment_method');
    }
    // Stripe's test-mode ids make a fresh card each time they are used
    const made: FakePaymentMethod = { id, customer: null, behaviour, last4: '0000' };
    this.paymentMethods.set(id, made);
    return made;
  }

  private attach(id: string, body: Json): Json {
    const method = this.findPaymentMethod(id);
    const customer = text(body.customer) ?? '';
    if (!this.customers.has(customer)) {
      throw noSuch('customer', customer, 'customer');
    }
    if (method.behaviour === 'declined-on-attach') {
      throw cardDeclined();
    }
    method.customer = customer;
    return this.paymentMethodJson(method);
  }

  private paymentMethodJson(method: FakePaymentMethod): Json {
    return {
      id: method.id,
      object: 'payment_method',
      type: 'card',
      customer: method.customer,
      card: { brand: 'visa', last4: method.last4, exp_month: 12, exp_year: 2034 },
    };
  }

  private findSubscription(id: string): FakeSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) {
      throw noSuch('subscription', id);
    }
    return subscription;
  }

  private createSubscription(body: Json): Json {
    const customer = text(body.customer) ?? '';
    if (!this.customers.has(customer)) {
      throw noSuch('customer', customer, 'customer');
    }
    const items = (body.items ?? {}) as Record<string, Json>;
    const priceId = text(items['0']?.price);
    if (priceId !== FAKE_PRICE_ID) {
      throw noSuch('price', priceId ?? '', 'items[0][price]');
    }
    if (text(body.payment_behavior) !== 'default_incomplete') {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: 'This fake only makes subscriptions with payment_behavior=default_incomplete.',
      });
    }
    const defaultPaymentMethod = text(body.default_payment_method) ?? null;
    if (
      defaultPaymentMethod &&
      this.findPaymentMethod(defaultPaymentMethod).customer !== customer
    ) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        param: 'default_payment_method',
        message: 'The payment method must be attached to the customer.',
      });
    }
    const now = this.now();
    const subscriptionId = `sub_${this.nextId()}`;
    const intent: FakePaymentIntent = {
      id: `pi_${this.nextId()}`,
      clientSecret: '',
      invoice: `in_${this.nextId()}`,
      status: 'requires_payment_method',
    };
    intent.clientSecret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    this.paymentIntents.set(intent.id, intent);
    this.invoices.set(intent.invoice, {
      id: intent.invoice,
      subscription: subscriptionId,
      paymentIntent: intent.id,
      status: 'open',
    });
    const subscription: FakeSubscription = {
      id: subscriptionId,
      customer,
      status: 'incomplete',
      priceId,
      created: now,
      startDate: now,
      periodStart: now,
      periodEnd: addMonths(now, 3),
      cancelAtPeriodEnd: text(body.cancel_at_period_end) === 'true',
      canceledAt: null,
      endedAt: null,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      defaultPaymentMethod,
      latestInvoice: intent.invoice,
    };
    this.subscriptions.set(subscription.id, subscription);
    this.emit('customer.subscription.created', this.subscriptionJson(subscription));
    return this.subscriptionJson(subscription, list(body.expand));
  }

  private confirmIntent(id: string, body: Json): Json {
    const intent = this.paymentIntents.get(id);
    if (!intent || text(body.client_secret) !== intent.clientSecret) {
      throw noSuch('payment_intent', id);
    }
    const invoice = this.invoices.get(intent.invoice);
    const subscription = invoice ? this.subscriptions.get(invoice.subscription) : undefined;
    const methodId = text(body.payment_method) ?? subscription?.defaultPaymentMethod ?? '';
    const method = this.findPaymentMethod(methodId);
    if (method.behaviour !== 'pays') {
      intent.status = 'requires_payment_method';
      throw new StripeFailure(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        payment_intent: { id: intent.id, object: 'payment_intent', status: intent.status },
      });
    }
    intent.status = 'succeeded';
    if (invoice && subscription) {
      invoice.status = 'paid';
      this.emit('invoice.paid', {
        id: invoice.id,
        object: 'invoice',
        status: 'paid',
        customer: subscription.customer,
      });
      this.setStatus(subscription.id, 'active');
    }
    return {
      id: intent.id,
      object: 'payment_intent',
      status: intent.status,
      amount: 1000,
      currency: 'usd',
      client_secret: intent.clientSecret,
    };
  }

  private subscriptionJson(subscription: FakeSubscription, expand: string[] = []): Json {
    const invoice = this.invoices.get(subscription.latestInvoice);
    const intent = invoice ? this.paymentIntents.get(invoice.paymentIntent) : undefined;
    const latestInvoice =
      expand.includes('latest_invoice.confirmation_secret') && invoice
        ? {
            id: invoice.id,
            object: 'invoice',
            status: invoice.status,
            confirmation_secret:
              intent && intent.status !== 'succeeded'
                ? { client_secret: intent.clientSecret, type: 'payment_intent' }
                : null,
          }
        : subscription.latestInvoice;
    return {
      id: subscription.id,
      object: 'subscription',
      customer: subscription.customer,
      status: subscription.status,
      created: subscription.created,
      start_date: subscription.startDate,
      cancel_at: subscription.cancelAtPeriodEnd ? subscription.periodEnd : null,
      cancel_at_period_end: subscription.cancelAtPeriodEnd,
      canceled_at: subscription.canceledAt,
      ended_at: subscription.endedAt,
      metadata: subscription.metadata,
      default_payment_method: subscription.defaultPaymentMethod,
      latest_invoice: latestInvoice,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${subscription.id}`,
        data: [
          {
            id: `si_${subscription.id.slice(4)}`,
            object: 'subscription_item',
            current_period_start: subscription.periodStart,
            current_period_end: subscription.periodEnd,
            price: {
              id: subscription.priceId,
              object: 'price',
              unit_amount: 1000,
              currency: 'usd',
              recurring: { interval: 'month', interval_count: 3 },
            },
          },
        ],
      },
    };
  }
}

/** Starts a fake Stripe API on a free port (or the given one). */
export function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  return new FakeStripe(options).start();
}
