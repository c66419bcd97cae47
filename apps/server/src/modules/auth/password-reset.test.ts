import { eq, sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FORGOT_PASSWORD_MESSAGE, MailOutbox, type MailOutboxEntry } from '@portfolio/types';

import { emailTokens, mailOutbox, users } from '../../db/schema.js';
import { currentUserOf, startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { linkIn, type SmtpSink, startSmtpSink } from '../../test/smtp-sink.js';
import { scaled } from '../../test/slow-machine.js';

const NEW_PASSWORD = 'a brand new passphrase';

let app: TestApp;
let smtp: SmtpSink;
const received: ParsedMail[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink(0, received);
  app = await startTestApp(
    { mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Portfolio <site@example.com>' } },
    { mailRetry: { baseDelayMs: 200, maxDelayMs: 400, maxAttempts: 1000, pollIntervalMs: 100 } },
  );
});
afterAll(async () => {
  await app.stop();
  await smtp.close();
});

const mailTo = (email: string, subject: RegExp) => (message: ParsedMail) =>
  message.to !== undefined &&
  !Array.isArray(message.to) &&
  message.to.value.some((address) => address.address?.toLowerCase() === email.toLowerCase()) &&
  subject.test(message.subject ?? '');

/** The token in a reset link (/reset-password#token=…). */
const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

describe('forgot password → reset by mail', () => {
  it('sends a link that sets a new password once; old password and other sessions end', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    const otherBrowser = app.client();
    expect(
      (
        await otherBrowser.post('/api/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(200);

    const guest = app.client();
    const asked = await guest.post('/api/auth/forgot-password', {
      login: user.email.toUpperCase(),
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ message: FORGOT_PASSWORD_MESSAGE });

    const mail = await smtp.waitFor(mailTo(user.email, /Reset your/));
    expect(mail.from?.value[0]).toMatchObject({ name: 'Portfolio', address: 'site@example.com' });
    expect(mail.text).toContain('within 30 minutes');
    expect(mail.html).toContain('/reset-password#token=');
    const link = linkIn(mail, `${app.url}/reset-password#token=`);
    const token = tokenOf(link);

    // a password the site's rules refuse keeps the link usable
    const weak = await guest.post('/api/auth/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(400);

    const reset = await guest.post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);

    // once only
    const again = await guest.post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: { code: 'INVALID_RESET_LINK' } });

    // every session ended; the old password fails, the new one works
    expect(await currentUserOf(user.client)).toBeNull();
    expect(await currentUserOf(otherBrowser)).toBeNull();
    const oldLogin = await app
      .client()
      .post('/api/auth/login', { username: user.username, password: user.password });
    expect(oldLogin.status).toBe(401);
    const newLogin = await app
      .client()
      .post('/api/auth/login', { username: user.username, password: NEW_PASSWORD });
    expect(newLogin.status).toBe(200);

    // the address is told
    await smtp.waitFor(mailTo(user.email, /password was changed/));
  });

  it('refuses an expired link', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    await app.client().post('/api/auth/forgot-password', { login: user.username });
    const token = tokenOf(
      linkIn(await smtp.waitFor(mailTo(user.email, /Reset your/)), `${app.url}/reset-password`),
    );
    await app.deps.database.db
      .update(emailTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailTokens.userId, user.id));
    const reset = await app
      .client()
      .post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(400);
    expect(reset.body).toMatchObject({ error: { code: 'INVALID_RESET_LINK' } });
    expect(
      (
        await app
          .client()
          .post('/api/auth/login', { username: user.username, password: user.password })
      ).status,
    ).toBe(200);
  });

  it.each([
    ['a display name', 'victim.example.com<evil@attacker.test>'],
    ['an encoded word', '=?utf-8?b?ZXZpbEBhdHRhY2tlci50ZXN0?=@example.com'],
  ])('refuses an address with %s as the other forms do', async (_case, login) => {
    const response = await app.client().post('/api/auth/forgot-password', { login });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'Please enter a valid email address' },
    });
  });

  it('never sends to a recipient that is not a bare address', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    // written around the contracts, as a row from before the rule would be
    await app.deps.mail.enqueue({
      kind: 'test',
      to: `${user.username}.example.com<${user.email}>`,
      subject: 'Not for anyone',
      text: 'text',
      html: '<p>html</p>',
    });
    await app.deps.mail.enqueue({
      kind: 'test',
      to: user.email,
      subject: 'For the bare address',
      text: 'text',
      html: '<p>html</p>',
    });
    await smtp.waitFor(mailTo(user.email, /For the bare address/));
    await app.deps.mail.deliverDue();
    const [refused] = await app.deps.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Not for anyone'));
    expect(refused).toMatchObject({
      status: 'failed',
      lastError: 'the recipient is not a bare email address',
    });
    expect(received.some((message) => message.subject === 'Not for anyone')).toBe(false);
  });

  it('answers an unknown user with the same words in the same time', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    const timeOf = async (login: string) => {
      const started = performance.now();
      const response = await app.client().post('/api/auth/forgot-password', { login });
      return { ms: performance.now() - started, status: response.status, body: response.body };
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    // alternating, so any drift of the machine falls on both
    for (let round = 0; round < 5; round++) {
      const a = await timeOf(user.username);
      const b = await timeOf(uniqueName('nobody'));
      const c = await timeOf(`${uniqueName('nobody')}@example.com`);
      expect(b.status).toBe(a.status);
      expect(b.body).toEqual(a.body);
      expect(c.body).toEqual(a.body);
      known.push(a.ms);
      unknown.push(b.ms, c.ms);
    }
    // 50 ms on an idle machine: a busy one spreads every answer's time
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(scaled(50));
  });

  it('sends an account at most three reset mails an hour', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    for (let i = 0; i < 5; i++) {
      expect(
        (await app.client().post('/api/auth/forgot-password', { login: user.username })).status,
      ).toBe(202);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await app.deps.database.db
      .select()
      .from(mailOutbox)
      .where(
        sql`${mailOutbox.recipient} = ${user.email} and ${mailOutbox.kind} = 'password-reset'`,
      );
    expect(rows).toHaveLength(3);
  });

  it('sends nothing for an unconfirmed email or an account without one', async () => {
    const unconfirmed = await signedInClient(app);
    const email = `${unconfirmed.username}@example.com`;
    await app.deps.database.db.update(users).set({ email }).where(eq(users.id, unconfirmed.id));
    const noEmail = await signedInClient(app);
    for (const login of [email, unconfirmed.username, noEmail.username]) {
      expect((await app.client().post('/api/auth/forgot-password', { login })).status).toBe(202);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await app.deps.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email));
    expect(rows).toHaveLength(0);
  });

  it('answers bad input with a 400', async () => {
    const guest = app.client();
    expect((await guest.post('/api/auth/forgot-password', {})).status).toBe(400);
    expect((await guest.post('/api/auth/forgot-password', { login: '   ' })).status).toBe(400);
    expect((await guest.post('/api/auth/forgot-password', { login: 'x'.repeat(300) })).status).toBe(
      400,
    );
    expect((await guest.post('/api/auth/reset-password', { password: NEW_PASSWORD })).status).toBe(
      400,
    );
    const forged = await guest.post('/api/auth/reset-password', {
      token: 'A'.repeat(43),
      password: NEW_PASSWORD,
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ error: { code: 'INVALID_RESET_LINK' } });
    expect(
      (await guest.post('/api/auth/reset-password', { token: '../../x', password: NEW_PASSWORD }))
        .status,
    ).toBe(400);
  });
});

describe('the admin’s one-time reset link', () => {
  it('makes an audited link for an account without an email', async () => {
    const admin = await signedInClient(app, 'admin');
    const user = await signedInClient(app);
    const made = await admin.client.post<{ url: string; expires_at: string }>(
      `/api/users/${user.id}/reset-link`,
    );
    expect(made.status).toBe(201);
    expect(made.body.url.startsWith(`${app.url}/reset-password#token=`)).toBe(true);
    const detail = await admin.client.get<{
      history: { action: string; actor_username: string }[];
    }>(`/api/users/${user.id}`);
    expect(detail.body.history[0]).toMatchObject({
      action: 'reset-link',
      actor_username: admin.username,
    });
    const reset = await app
      .client()
      .post('/api/auth/reset-password', { token: tokenOf(made.body.url), password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(await currentUserOf(user.client)).toBeNull();

    // not for others, and not for a user that does not exist
    expect((await user.client.post(`/api/users/${user.id}/reset-link`)).status).toBe(401);
    const plain = await signedInClient(app);
    expect((await plain.client.post(`/api/users/${user.id}/reset-link`)).status).toBe(403);
    expect((await admin.client.post('/api/users/not-an-id/reset-link')).status).toBe(404);
    expect(
      (await admin.client.post('/api/users/00000000-0000-4000-8000-000000000000/reset-link'))
        .status,
    ).toBe(404);
  });
});

describe('the queue across an SMTP outage', () => {
  it('keeps mail while SMTP is down and delivers it when it is back on the same port', async () => {
    const user = await signedInClient(app, { confirmedEmail: true });
    await smtp.close();
    await app.client().post('/api/auth/forgot-password', { login: user.username });
    // wait until a delivery has failed at least twice
    const failedTwice = async () => {
      const [row] = await app.deps.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, user.email));
      return row !== undefined && row.status === 'pending' && row.attempts >= 2;
    };
    const deadline = Date.now() + scaled(10_000);
    while (!(await failedTwice())) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    smtp = await startSmtpSink(smtp.port, received);
    await smtp.waitFor(mailTo(user.email, /Reset your/));
    // the sink has the mail as soon as its data ends; the queue marks it sent when the server's
    // answer to that arrives, a moment later
    const statusOf = async () => {
      const [row] = await app.deps.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, user.email));
      return row?.status;
    };
    await expect.poll(statusOf, { timeout: scaled(10_000), interval: 50 }).toBe('sent');
  });
});

describe('without SMTP_URL: the outbox', () => {
  it('keeps every message where the admin reads it', async () => {
    const local = await startTestApp();
    try {
      const user = await signedInClient(local, { confirmedEmail: true });
      const { email } = user;
      await local.client().post('/api/auth/forgot-password', { login: email });
      const admin = await signedInClient(local, 'admin');
      expect((await user.client.get('/api/admin/mail')).status).toBe(403);
      let message: MailOutboxEntry | undefined;
      const deadline = Date.now() + scaled(5000);
      while (!message) {
        expect(Date.now()).toBeLessThan(deadline);
        const outbox = MailOutbox.parse((await admin.client.get('/api/admin/mail')).body);
        message = outbox.find((entry) => entry.to === email && entry.status === 'kept');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(message.kind).toBe('password-reset');
      expect(message.text).toContain(`${local.url}/reset-password#token=`);
    } finally {
      await local.stop();
    }
  });
});
