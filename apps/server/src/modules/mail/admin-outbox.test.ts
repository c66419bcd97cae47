import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type ApiError,
  MailMessageResponse,
  MailOutbox,
  type MailOutboxEntry,
} from '@portfolio/types';

import { users } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink.js';

/*
 * The admin's outbox: the list (GET /api/admin/mail), one message (GET /api/admin/mail/:id) and
 * Resend (POST /api/admin/mail/:id/resend), which queues a copy as a new message and leaves the
 * first as it was.
 */

/** A user with a confirmed address who asks for a reset link: one message in the outbox. */
async function askForResetMail(app: TestApp): Promise<string> {
  const user = await signedInClient(app);
  const email = `${user.username}@example.com`;
  await app.deps.database.db
    .update(users)
    .set({ email, emailConfirmedAt: new Date() })
    .where(eq(users.id, user.id));
  expect((await app.client().post('/api/auth/forgot-password', { login: email })).status).toBe(202);
  return email;
}

/** The outbox's messages to one address once `isDone` holds for them (the worker is async). */
async function messagesTo(
  admin: Awaited<ReturnType<typeof signedInClient>>,
  email: string,
  isDone: (messages: MailOutboxEntry[]) => boolean,
): Promise<MailOutboxEntry[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const outbox = MailOutbox.parse((await admin.client.get('/api/admin/mail')).body);
    const messages = outbox.filter((entry) => entry.to === email);
    if (isDone(messages)) {
      return messages;
    }
    expect(Date.now(), JSON.stringify(messages)).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('without SMTP_URL: the outbox', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('opens one message and resends it as a new one; the first stays as it was', async () => {
    const email = await askForResetMail(app);
    const admin = await signedInClient(app, 'admin');
    const [original] = await messagesTo(admin, email, (found) => found[0]?.status === 'kept');
    if (!original) {
      throw new Error('no message');
    }

    const opened = await admin.client.get(`/api/admin/mail/${original.id}`);
    expect(opened.status).toBe(200);
    expect(MailMessageResponse.parse(opened.body).message).toEqual(original);

    const resent = await admin.client.post(`/api/admin/mail/${original.id}/resend`);
    expect(resent.status).toBe(201);
    const copy = MailMessageResponse.parse(resent.body).message;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      kind: 'password-reset',
      to: email,
      subject: original.subject,
      text: original.text,
      attempts: 0,
    });

    const both = await messagesTo(
      admin,
      email,
      (found) => found.length === 2 && found.every((entry) => entry.status === 'kept'),
    );
    // newest first: the copy, then the original, unchanged
    expect(both.map((entry) => entry.id)).toEqual([copy.id, original.id]);
    expect(both[1]).toEqual(original);
  });

  it('answers an unknown message 404, a malformed id 400, and only admins', async () => {
    const admin = await signedInClient(app, 'admin');
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const response of [
      await admin.client.get(`/api/admin/mail/${unknown}`),
      await admin.client.post(`/api/admin/mail/${unknown}/resend`),
    ]) {
      expect(response.status).toBe(404);
      expect((response.body as ApiError).error).toMatchObject({
        code: 'MAIL_NOT_FOUND',
        message: 'No message with that id',
      });
    }
    for (const response of [
      await admin.client.get('/api/admin/mail/not-an-id'),
      await admin.client.post('/api/admin/mail/not-an-id/resend'),
    ]) {
      expect(response.status).toBe(400);
      expect((response.body as ApiError).error.message).toBe('id: must be a message id');
    }
    const user = await signedInClient(app);
    expect((await user.client.get(`/api/admin/mail/${unknown}`)).status).toBe(403);
    expect((await user.client.post(`/api/admin/mail/${unknown}/resend`)).status).toBe(403);
    expect((await app.client().post(`/api/admin/mail/${unknown}/resend`)).status).toBe(401);
  });
});

describe('with SMTP_URL', () => {
  let app: TestApp;
  let smtp: SmtpSink;
  const received: ParsedMail[] = [];
  beforeAll(async () => {
    smtp = await startSmtpSink(0, received);
    app = await startTestApp({
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Portfolio <site@example.com>' },
    });
  });
  afterAll(async () => {
    await app.stop();
    await smtp.close();
  });

  it('delivers a resent message to its recipient a second time', async () => {
    const email = await askForResetMail(app);
    const admin = await signedInClient(app, 'admin');
    const [sent] = await messagesTo(admin, email, (found) => found[0]?.status === 'sent');
    if (!sent) {
      throw new Error('no message');
    }
    const to = (message: ParsedMail) =>
      message.to !== undefined &&
      !Array.isArray(message.to) &&
      message.to.value.some((address) => address.address === email);
    await smtp.waitFor(to);

    expect((await admin.client.post(`/api/admin/mail/${sent.id}/resend`)).status).toBe(201);
    const deadline = Date.now() + 10_000;
    while (received.filter(to).length < 2) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [first, second] = received.filter(to);
    expect(second?.subject).toBe(first?.subject);
    expect(second?.text).toBe(first?.text);
    await messagesTo(
      admin,
      email,
      (found) => found.length === 2 && found.every((entry) => entry.status === 'sent'),
    );
  });
});
