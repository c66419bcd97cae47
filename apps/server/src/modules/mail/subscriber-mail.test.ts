import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { users } from '../../db/schema.js';
import { FAKE_PRICE_ID, type FakeStripe, startFakeStripe } from '../../test/fake-stripe.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink.js';

let fake: FakeStripe;
let smtp: SmtpSink;
let app: TestApp;

beforeAll(async () => {
  fake = await startFakeStripe();
  smtp = await startSmtpSink();
  app = await startTestApp(
    {
      stripe: {
        secretKey: fake.secretKey,
        publishableKey: fake.publishableKey,
        webhookSecret: fake.webhookSecret,
        priceId: FAKE_PRICE_ID,
        apiUrl: fake.url,
      },
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: undefined },
    },
    { mailRetry: { baseDelayMs: 200, maxDelayMs: 400, maxAttempts: 1000, pollIntervalMs: 100 } },
  );
});
afterAll(async () => {
  await app.stop();
  await smtp.close();
  await fake.stop();
});

const signer = new Stripe('sk_test_signer');
/** Posts an event signed with the webhook secret, as Stripe would. */
async function postSigned(event: object): Promise<number> {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: fake.webhookSecret,
  });
  const response = await fetch(`${app.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return response.status;
}

/** A signed-in user with a confirmed email and a Stripe customer. */
async function customer() {
  const username = uniqueName();
  const customerId = `cus_${username}`;
  const user = await signedInClient(app, {
    username,
    confirmedEmail: true,
    columns: { stripeCustomerId: customerId },
  });
  return { ...user, customerId };
}

const to = (email: string) => (message: ParsedMail) =>
  !Array.isArray(message.to) &&
  message.to?.value.some((address) => address.address === email) === true;

describe('mail that matters to a subscriber', () => {
  it('mails a failed payment once, even when Stripe replays the webhook', async () => {
    const user = await customer();
    const event = {
      id: `evt_failed_${user.username}`,
      object: 'event',
      type: 'invoice.payment_failed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { object: 'invoice', id: `in_${user.username}`, customer: user.customerId } },
    };
    expect(await postSigned(event)).toBe(200);
    expect(await postSigned(event)).toBe(200);
    const message = await smtp.waitFor(to(user.email));
    expect(message.subject).toMatch(/payment failed/);
    expect(message.text).toContain(`${app.url}/profile`);
    // essential: no unsubscribe link
    expect(message.headers.get('list')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(smtp.messages.filter(to(user.email))).toHaveLength(1);
  });

  it('tells the holder of an admin-granted subscription a few days before it ends, once', async () => {
    const soon = await customer();
    const later = await customer();
    const now = Date.now();
    const grant = (endsInDays: number) => ({
      role: 'subscriber' as const,
      subscriptionGrantedAt: new Date(now - 86_400_000),
      subscriptionGrantEndsAt: new Date(now + endsInDays * 86_400_000),
    });
    await app.deps.database.db.update(users).set(grant(2)).where(eq(users.id, soon.id));
    await app.deps.database.db.update(users).set(grant(10)).where(eq(users.id, later.id));
    // the check runs every minute: one mail per grant end, however often
    await app.deps.mailGrantsEndingSoon();
    await app.deps.mailGrantsEndingSoon();
    const message = await smtp.waitFor(
      (mail) => to(soon.email)(mail) && /is ending/.test(mail.subject ?? ''),
    );
    expect(message.text).toContain('The subscription you were given ends on');
    expect(message.text).toContain(`${app.url}/subscribe`);
    const list = message.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
    expect(list?.unsubscribe?.url).toMatch(/\/api\/mail\/unsubscribe\?/);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(smtp.messages.filter(to(soon.email))).toHaveLength(1);
    expect(smtp.messages.filter(to(later.email))).toHaveLength(0);
  });

  it('mails subscription news with an unsubscribe link that turns it off', async () => {
    const user = await customer();
    const now = Math.floor(Date.now() / 1000);
    const subscription = (status: string, cancelAtPeriodEnd: boolean) => ({
      object: 'subscription',
      id: `sub_${user.username}`,
      customer: user.customerId,
      status,
      metadata: { userId: user.id },
      start_date: now - 60,
      cancel_at_period_end: cancelAtPeriodEnd,
      items: { data: [{ current_period_end: now + 89 * 86_400 }] },
    });
    expect(
      await postSigned({
        id: `evt_started_${user.username}`,
        object: 'event',
        type: 'customer.subscription.updated',
        created: now - 10,
        data: { object: subscription('active', false) },
      }),
    ).toBe(200);
    const started = await smtp.waitFor(
      (message) => to(user.email)(message) && /has started/.test(message.subject ?? ''),
    );
    // mailparser reads List-* headers into `list`: List-Unsubscribe is list.unsubscribe.url
    const list = started.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
    const unsubscribeUrl = list?.unsubscribe?.url ?? '';
    expect(unsubscribeUrl.startsWith(`${app.url}/api/mail/unsubscribe?`)).toBe(true);
    expect(started.text).toContain(unsubscribeUrl);

    // a forged link changes nothing
    const forged = await fetch(unsubscribeUrl.replace(/t=[^&]+/, 't=forged'));
    expect(forged.status).toBe(400);
    expect((await fetch(unsubscribeUrl)).status).toBe(200);
    const [row] = await app.deps.database.db
      .select({ optOut: users.mailOptOut })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.optOut).toBe(true);

    // news stops; a failed payment still comes
    expect(
      await postSigned({
        id: `evt_ending_${user.username}`,
        object: 'event',
        type: 'customer.subscription.updated',
        created: now - 5,
        data: { object: subscription('active', true) },
      }),
    ).toBe(200);
    expect(
      await postSigned({
        id: `evt_failed2_${user.username}`,
        object: 'event',
        type: 'invoice.payment_failed',
        created: now,
        data: { object: { object: 'invoice', customer: user.customerId } },
      }),
    ).toBe(200);
    await smtp.waitFor(
      (message) => to(user.email)(message) && /payment failed/.test(message.subject ?? ''),
    );
    expect(
      smtp.messages.filter(
        (message) => to(user.email)(message) && /is ending/.test(message.subject ?? ''),
      ),
    ).toHaveLength(0);
  });

  it('keeps the one preference on the profile (POST /api/user/mail-preferences)', async () => {
    const user = await customer();
    expect(
      (await user.client.post('/api/user/mail-preferences', { subscription_mail: 'no' })).status,
    ).toBe(400);
    expect(
      (await app.client().post('/api/user/mail-preferences', { subscription_mail: false })).status,
    ).toBe(401);
    expect(
      (await user.client.post('/api/user/mail-preferences', { subscription_mail: false })).status,
    ).toBe(200);
    expect(
      (await user.client.get<{ subscription_mail: boolean }>('/api/user/profile')).body
        .subscription_mail,
    ).toBe(false);
    await user.client.post('/api/user/mail-preferences', { subscription_mail: true });
    expect(
      (await user.client.get<{ subscription_mail: boolean }>('/api/user/profile')).body
        .subscription_mail,
    ).toBe(true);
  });
});
