import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ApiError, type CurrentUserResponse, UserDetail } from '@portfolio/types';
import type {
  CreateSubscriptionResponse,
  PaymentsConfig,
  PortalSessionResponse,
  SubscriptionState,
  SubscriptionSyncResponse,
} from '@portfolio/types/subscription';

import { FAKE_PRICE_ID, type FakeStripe, startFakeStripe } from '../../test/fake-stripe.js';
import {
  currentUserOf,
  startTestApp,
  type TestApp,
  TestClient,
  uniqueName,
} from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { captureLogs } from '../../lib/logger.js';

const THREE_MONTHS_MS = 89 * 24 * 60 * 60 * 1000;

/** An app whose Stripe is the fake; webhooks go back to the app's own endpoint. */
async function startPaymentsApp(
  fake: FakeStripe,
  overrides: Parameters<typeof startTestApp>[0] = {},
) {
  const app = await startTestApp({
    stripe: {
      secretKey: fake.secretKey,
      publishableKey: fake.publishableKey,
      webhookSecret: fake.webhookSecret,
      priceId: FAKE_PRICE_ID,
      apiUrl: fake.url,
    },
    ...overrides,
  });
  fake.setWebhookUrl(`${app.url}/api/stripe/webhook`);
  return app;
}

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await startPaymentsApp(fake);
});
afterAll(async () => {
  await app.stop();
  await fake.stop();
});

const role = async (client: TestClient) => (await currentUserOf(client))?.role;
const state = async (client: TestClient) =>
  (await client.get<SubscriptionState>('/api/subscription')).body;

/** Starts a checkout and returns the subscription the fake made for it. */
async function checkout(client: TestClient, paymentMethodId = 'pm_card_visa') {
  const eventsBefore = fake.events.length;
  const response = await client.post<CreateSubscriptionResponse>('/api/create-subscription', {
    paymentMethodId,
    cancelAtPeriodEnd: false,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const created = fake.events
    .slice(eventsBefore)
    .find((event) => event.type === 'customer.subscription.created');
  const subscriptionId = (created?.data.object as { id: string } | undefined)?.id;
  if (!subscriptionId || !response.body.clientSecret) {
    throw new Error('checkout made no subscription');
  }
  return { subscriptionId, clientSecret: response.body.clientSecret, eventsBefore };
}

/** Delivers events (signed, to the app) in the order given; returns the answers. */
async function deliver(...events: typeof fake.events) {
  const statuses: number[] = [];
  for (const event of events) {
    statuses.push(await fake.deliver(event));
  }
  return statuses;
}

const eventsSince = (index: number) => fake.events.slice(index);

const signer = new Stripe('sk_test_signer');
/** Posts any body signed with the webhook secret, as if Stripe sent it (at `timestamp`). */
function postSigned(payload: string, timestamp?: number) {
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: fake.webhookSecret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return fetch(`${app.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

describe('checkout: POST /api/create-subscription', () => {
  it('tells the page the publishable key', async () => {
    const response = await app.client().get<PaymentsConfig>('/api/subscription/config');
    expect(response.body).toEqual({ publishableKey: fake.publishableKey });
  });

  it('turns guests away and explains a bad body', async () => {
    const guest = await app.client().post<ApiError>('/api/create-subscription', {
      paymentMethodId: 'pm_card_visa',
    });
    expect(guest.status).toBe(401);
    const { client } = await signedInClient(app);
    const bad = await client.post<ApiError>('/api/create-subscription', {
      paymentMethodId: 'tok_visa',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('paymentMethodId: must be a card payment method id (pm_…)');
  });

  it('creates the customer and a default_incomplete subscription with idempotency keys', async () => {
    const { client, id, username } = await signedInClient(app);
    const requestsBefore = fake.requests.length;
    const { subscriptionId, clientSecret } = await checkout(client);
    expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/);

    const calls = fake.requests.slice(requestsBefore);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/payment_methods/pm_card_visa/attach',
      'POST /v1/subscriptions',
    ]);
    for (const call of calls) {
      expect(call.idempotencyKey, call.path).toBeTruthy();
    }
    expect(calls[0]?.body).toMatchObject({ name: username, metadata: { userId: id } });
    expect(calls[2]?.body).toMatchObject({
      items: { '0': { price: FAKE_PRICE_ID } },
      payment_behavior: 'default_incomplete',
      default_payment_method: 'pm_card_visa',
      cancel_at_period_end: 'false',
      metadata: { userId: id },
      expand: { '0': 'latest_invoice.confirmation_secret' },
    });
    expect(fake.subscription(subscriptionId).status).toBe('incomplete');

    // nothing is paid yet: the account shows the pending subscription and keeps its role
    expect(await role(client)).toBe('user');
    expect(await state(client)).toMatchObject({ status: 'incomplete', canManage: true });
  });

  it('reuses the customer on a second checkout and ends the abandoned incomplete one', async () => {
    const { client } = await signedInClient(app);
    const first = await checkout(client);
    const customersBefore = fake.requests.filter((call) => call.path === '/v1/customers').length;
    const second = await checkout(client, fake.createTestPaymentMethod());
    expect(second.subscriptionId).not.toBe(first.subscriptionId);
    expect(fake.requests.filter((call) => call.path === '/v1/customers')).toHaveLength(
      customersBefore,
    );
    expect(fake.subscription(first.subscriptionId).status).toBe('canceled');
    expect(fake.subscription(first.subscriptionId).customer).toBe(
      fake.subscription(second.subscriptionId).customer,
    );
  });

  it('answers a double submit of the same card with the same subscription', async () => {
    const { client } = await signedInClient(app);
    const body = { paymentMethodId: 'pm_card_visa', cancelAtPeriodEnd: false };
    const [a, b] = await Promise.all([
      client.post<CreateSubscriptionResponse>('/api/create-subscription', body),
      client.post<CreateSubscriptionResponse>('/api/create-subscription', body),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.clientSecret).toBe(b.body.clientSecret);
  });

  it("shows Stripe's message for a card declined when it is attached", async () => {
    const { client } = await signedInClient(app);
    const subscriptionsBefore = fake.requests.filter((call) => call.path === '/v1/subscriptions');
    const response = await client.post<ApiError>('/api/create-subscription', {
      paymentMethodId: 'pm_card_chargeDeclined',
    });
    expect(response.status).toBe(402);
    expect(response.body.error).toEqual({
      code: 'PAYMENT_DECLINED',
      message: 'Your card was declined.',
    });
    expect(fake.requests.filter((call) => call.path === '/v1/subscriptions')).toHaveLength(
      subscriptionsBefore.length,
    );
  });

  it("answers an unknown payment method with Stripe's message", async () => {
    const { client } = await signedInClient(app);
    const response = await client.post<ApiError>('/api/create-subscription', {
      paymentMethodId: 'pm_does_not_exist',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe("No such PaymentMethod: 'pm_does_not_exist'");
  });

  it('refuses a second subscription while one is held', async () => {
    const { client } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    await deliver(...eventsSince(eventsBefore));
    const again = await client.post<ApiError>('/api/create-subscription', {
      paymentMethodId: 'pm_card_visa',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(
      'You already have a subscription. Manage it from your profile.',
    );
  });
});

describe('webhooks: POST /api/stripe/webhook', () => {
  it('follows the whole lifecycle: incomplete → active → past_due → canceled', async () => {
    const { client } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    expect(await role(client)).toBe('user');

    fake.confirmPayment(clientSecret);
    const paid = eventsSince(eventsBefore);
    expect(paid.map((event) => event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    expect(await deliver(...paid)).toEqual([200, 200, 200]);
    // the cached session sees the new role at once
    expect(await role(client)).toBe('subscriber');
    const active = await state(client);
    expect(active.status).toBe('active');
    expect(active.cancelAtPeriodEnd).toBe(false);
    const start = Date.parse(active.startDate ?? '');
    expect(Date.parse(active.endDate ?? '') - start).toBeGreaterThan(THREE_MONTHS_MS);

    fake.advance(10);
    expect(await deliver(fake.setStatus(subscriptionId, 'past_due'))).toEqual([200]);
    expect(await state(client)).toMatchObject({ status: 'past_due' });
    expect(await role(client)).toBe('subscriber');

    fake.advance(10);
    expect(await deliver(fake.setStatus(subscriptionId, 'canceled'))).toEqual([200]);
    expect(await state(client)).toMatchObject({ status: 'canceled' });
    expect(await role(client)).toBe('user');
  });

  it('handles a redelivered event once', async () => {
    const { client, id } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const paid = eventsSince(eventsBefore);
    await deliver(...paid);
    expect(await role(client)).toBe('subscriber');

    // an admin takes the role away; the same event delivered again must not give it back
    await app.deps.users.setRole(id, 'user');
    app.deps.events.emit('user:role-changed', { userId: id, role: 'user' });
    const activated = paid.at(-1);
    if (!activated) {
      throw new Error('no event');
    }
    const { payload, signature } = fake.signed(activated);
    const replay = await fetch(`${app.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    expect(await role(client)).toBe('user');
  });

  it('refuses a missing or tampered signature with 400 and changes nothing', async () => {
    const { client } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const activated = eventsSince(eventsBefore).at(-1);
    if (!activated) {
      throw new Error('no event');
    }
    const { payload, signature } = fake.signed(activated);
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${app.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const tamperedBody = payload.replace('"active"', '"trialing"');
    const answers = [
      await post(payload, {}),
      await post(payload, {
        'stripe-signature': signature.replace(/v1=(\w)/, (_, first: string) =>
          first === '0' ? 'v1=1' : 'v1=0',
        ),
      }),
      await post(tamperedBody, { 'stripe-signature': signature }),
      await post(payload, { 'stripe-signature': fake.signed(activated, 'whsec_other').signature }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
    expect(((await answers[0]?.json()) as ApiError).error.message).toBe(
      'Missing Stripe-Signature header',
    );
    expect(((await answers[1]?.json()) as ApiError).error.message).toBe(
      'Invalid webhook signature',
    );
    expect(await role(client)).toBe('user');
    // the real delivery still works afterwards: refused attempts were not recorded as handled
    expect(await fake.deliver(activated)).toBe(200);
    expect(await role(client)).toBe('subscriber');
  });

  it('keeps the newest state when events arrive out of order', async () => {
    const { client } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const paid = eventsSince(eventsBefore);
    fake.advance(5);
    const canceled = fake.setStatus(subscriptionId, 'canceled');
    // the cancellation arrives first, then the older events
    await deliver(canceled, ...paid.reverse());
    expect(await state(client)).toMatchObject({ status: 'canceled' });
    expect(await role(client)).toBe('user');
  });

  it('answers events it does not act on, and events of unknown customers, with 200', async () => {
    const other = fake.emit('customer.created', { id: 'cus_unrelated', object: 'customer' });
    const stranger = fake.emit('customer.subscription.updated', {
      id: 'sub_stranger',
      object: 'subscription',
      customer: 'cus_stranger',
      status: 'active',
      start_date: fake.now(),
      cancel_at_period_end: false,
      cancel_at: null,
      ended_at: null,
      metadata: { userId: 'not-a-uuid' },
      items: { object: 'list', data: [] },
    });
    expect(await deliver(other, stranger)).toEqual([200, 200]);
  });

  it('answers a signed but malformed event with 400, logged once, never 500', async () => {
    const { client } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const activated = eventsSince(eventsBefore).at(-1);
    if (!activated) {
      throw new Error('no event');
    }
    const validSubscription = activated.data.object as unknown as Record<string, unknown>;
    const malformed = [
      '{"id":null,"type":"customer.subscription.updated","created":"yesterday","data":null}',
      JSON.stringify({
        ...activated,
        id: `evt_malformed_${subscriptionId}`,
        data: { object: { ...validSubscription, customer: null, status: {} } },
      }),
      JSON.stringify({
        ...activated,
        id: `evt_items_${subscriptionId}`,
        data: { object: { ...validSubscription, items: null } },
      }),
      JSON.stringify({
        ...activated,
        id: `evt_object_${subscriptionId}`,
        data: { object: { id: 'cus_1', object: 'customer' } },
      }),
      'null',
      '[]',
      'not json at all',
    ];
    const logs = captureLogs();
    try {
      for (const payload of malformed) {
        // Stripe retries a refused delivery: the same body twice
        for (let attempt = 0; attempt < 2; attempt++) {
          const response = await postSigned(payload);
          expect(response.status, payload).toBe(400);
          const body = (await response.json()) as ApiError;
          expect(body.error.code, payload).toBe('BAD_REQUEST');
          expect(body.error.message, payload).toMatch(/^Malformed webhook event/);
        }
      }
      const refusals = logs
        .linesAtLeast('warn')
        .filter((line) => String(line.msg).startsWith('refused a malformed webhook event'));
      expect(refusals).toHaveLength(malformed.length);
      expect(logs.linesAtLeast('error')).toEqual([]);
    } finally {
      logs.restore();
    }
    expect(await role(client)).toBe('user');
    // the real event still works afterwards
    expect(await deliver(activated)).toEqual([200]);
    expect(await role(client)).toBe('subscriber');
  });

  it('refuses an event dated, or signed, more than the tolerance in the future', async () => {
    const { client } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const activated = eventsSince(eventsBefore).at(-1);
    if (!activated) {
      throw new Error('no event');
    }
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const future = await postSigned(JSON.stringify({ ...activated, created: inAnHour }));
    expect(future.status).toBe(400);
    expect(((await future.json()) as ApiError).error.message).toBe(
      'Malformed webhook event: created: is in the future',
    );
    const signedLater = await postSigned(JSON.stringify(activated), inAnHour);
    expect(signedLater.status).toBe(400);
    expect(((await signedLater.json()) as ApiError).error.message).toBe(
      'Invalid webhook signature',
    );
    expect(await role(client)).toBe('user');
    // a few seconds ahead (clocks differ) is fine
    const soon = await postSigned(
      JSON.stringify({ ...activated, created: Math.floor(Date.now() / 1000) + 60 }),
      Math.floor(Date.now() / 1000) + 60,
    );
    expect(soon.status).toBe(200);
    expect(await role(client)).toBe('subscriber');
  });

  it('reads the signing time Stripe verifies (the last t=), not the first', async () => {
    const { client } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    const activated = eventsSince(eventsBefore).at(-1);
    if (!activated) {
      throw new Error('no event');
    }
    const now = Math.floor(Date.now() / 1000);
    const inAnHour = now + 3600;
    const payload = JSON.stringify(activated);
    // validly signed an hour ahead, with a current t= put in front of Stripe's
    const signedLater = signer.webhooks.generateTestHeaderString({
      payload,
      secret: fake.webhookSecret,
      timestamp: inAnHour,
    });
    const post = (signature: string) =>
      fetch(`${app.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    for (const signature of [`t=${now},${signedLater}`, `${signedLater},t=${now}`]) {
      const response = await post(signature);
      expect(response.status, signature).toBe(400);
      expect(((await response.json()) as ApiError).error.message, signature).toBe(
        'Invalid webhook signature',
      );
    }
    // a signature with no time, or a time that is no number, is refused the same way
    const v1 = signedLater.slice(signedLater.indexOf(',') + 1);
    for (const signature of [v1, `t=soon,${v1}`]) {
      const response = await post(signature);
      expect(response.status, signature).toBe(400);
    }
    expect(await role(client)).toBe('user');
  });

  it("keeps an admin's grant: a Stripe subscription ending later does not undo it", async () => {
    const admin = await signedInClient(app, 'admin');
    const { client, id } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    await deliver(...eventsSince(eventsBefore));
    expect(await role(client)).toBe('subscriber');
    // the admin demotes, then grants: the role is now the admin's grant
    await admin.client.post('/api/update-role', { userId: id, role: 'user' });
    await admin.client.post('/api/update-role', { userId: id, role: 'subscriber' });

    fake.advance(10);
    expect(await deliver(fake.setStatus(subscriptionId, 'canceled'))).toEqual([200]);
    // Stripe's status is recorded as Stripe's; the grant and its role stay
    expect(await state(client)).toMatchObject({ status: 'canceled' });
    expect(await role(client)).toBe('subscriber');
    const detail = UserDetail.parse((await admin.client.get(`/api/users/${id}`)).body);
    expect(detail.subscription_status).toBe('canceled');
    expect(detail.subscription_grant).toEqual({
      granted_at: expect.any(String) as string,
      ends_at: null,
    });
  });

  it('ends a subscription that was paid, not granted, when Stripe says so', async () => {
    const admin = await signedInClient(app, 'admin');
    const { client, id } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    await deliver(...eventsSince(eventsBefore));
    // an admin setting Subscriber on a paying subscriber changes nothing and grants nothing
    await admin.client.post('/api/update-role', { userId: id, role: 'subscriber' });
    fake.advance(10);
    expect(await deliver(fake.setStatus(subscriptionId, 'canceled'))).toEqual([200]);
    expect(await role(client)).toBe('user');
    const detail = UserDetail.parse((await admin.client.get(`/api/users/${id}`)).body);
    expect(detail.subscription_grant).toBeNull();
  });

  it('keeps an admin an admin', async () => {
    const { client } = await signedInClient(app, 'admin');
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    await deliver(...eventsSince(eventsBefore));
    expect(await state(client)).toMatchObject({ status: 'active' });
    expect(await role(client)).toBe('admin');
  });
});

describe('after checkout and afterwards', () => {
  it('syncs the state from Stripe before the webhook comes, and a late older event loses', async () => {
    const { client, username } = await signedInClient(app);
    const { clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    fake.advance(2);
    const synced = await client.post<SubscriptionSyncResponse>('/api/subscription/sync');
    expect(synced.status).toBe(200);
    expect(synced.body.user).toMatchObject({ username, role: 'subscriber' });
    expect(synced.body.subscription.status).toBe('active');
    expect(await role(client)).toBe('subscriber');
    const created = eventsSince(eventsBefore)[0];
    if (!created) {
      throw new Error('no event');
    }
    expect(await deliver(created)).toEqual([200]);
    expect(await state(client)).toMatchObject({ status: 'active' });
  });

  it('opens the customer portal, returning to the profile', async () => {
    const { client } = await signedInClient(app);
    const none = await client.post<ApiError>('/api/subscription/portal');
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe('There is no subscription to manage yet.');

    await checkout(client);
    const portal = await client.post<PortalSessionResponse>('/api/subscription/portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    const call = fake.requests.filter((request) => request.path === '/v1/billing_portal/sessions');
    expect(call.at(-1)?.body.return_url).toBe(`${app.url}/profile`);
  });

  it('records a cancellation at period end from the portal, keeping access until it ends', async () => {
    const { client } = await signedInClient(app);
    const { subscriptionId, clientSecret, eventsBefore } = await checkout(client);
    fake.confirmPayment(clientSecret);
    await deliver(...eventsSince(eventsBefore));
    fake.advance(3);
    await deliver(fake.setStatus(subscriptionId, 'active', { cancelAtPeriodEnd: true }));
    const after = await state(client);
    expect(after).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(after.endDate).toBe(
      new Date(fake.subscription(subscriptionId).periodEnd * 1000).toISOString(),
    );
    expect(await role(client)).toBe('subscriber');
  });
});

describe('without Stripe keys', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(async () => {
    await plain.stop();
  });

  it("answers 503 'Payments are not configured' and everything else works", async () => {
    const { client } = await signedInClient(plain);
    const expected = { code: 'PAYMENTS_NOT_CONFIGURED', message: 'Payments are not configured' };
    for (const path of [
      '/api/create-subscription',
      '/api/subscription/sync',
      '/api/subscription/portal',
    ]) {
      const response = await client.post<ApiError>(path, { paymentMethodId: 'pm_card_visa' });
      expect(response.status, path).toBe(503);
      expect(response.body.error).toEqual(expected);
    }
    const webhook = await fetch(`${plain.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect(webhook.status).toBe(503);
    expect((await client.get<PaymentsConfig>('/api/subscription/config')).body).toEqual({
      publishableKey: null,
    });
    expect(await state(client)).toEqual({
      status: null,
      startDate: null,
      endDate: null,
      cancelAtPeriodEnd: false,
      canManage: false,
    });
    expect(await role(client)).toBe('user');
  });
});

// two app instances sharing PostgreSQL and Redis, as two processes behind a load balancer would
const isShared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!isShared)('two server processes', () => {
  it('a webhook on one process changes the role a session on the other sees at once', async () => {
    const redisPrefix = uniqueName('stripe-two');
    const sharedFake = await startFakeStripe();
    const appA = await startPaymentsApp(sharedFake, { redisPrefix });
    const appB = await startPaymentsApp(sharedFake, { redisPrefix });
    try {
      const { client } = await signedInClient(appB);
      const onB = async () =>
        (
          await new TestClient(appB.url).request<CurrentUserResponse>(
            'GET',
            '/api/auth/current-user',
            undefined,
            { cookie: client.cookieHeader },
          )
        ).body.user;
      // B holds the session in memory from here on
      expect((await onB())?.role).toBe('user');
      const eventsBefore = sharedFake.events.length;
      const created = await client.post<CreateSubscriptionResponse>('/api/create-subscription', {
        paymentMethodId: 'pm_card_visa',
      });
      sharedFake.confirmPayment(created.body.clientSecret ?? '');
      sharedFake.setWebhookUrl(`${appA.url}/api/stripe/webhook`);
      for (const event of sharedFake.events.slice(eventsBefore)) {
        expect(await sharedFake.deliver(event)).toBe(200);
      }
      const deadline = Date.now() + 2000;
      let seen = (await onB())?.role;
      while (seen !== 'subscriber' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = (await onB())?.role;
      }
      expect(seen).toBe('subscriber');
    } finally {
      await appA.stop();
      await appB.stop();
      await sharedFake.stop();
    }
  });
});
