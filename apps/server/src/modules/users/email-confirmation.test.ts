import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Profile } from '@portfolio/types';

import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { linkIn, type SmtpSink, startSmtpSink } from '../../test/smtp-sink.js';

let app: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  app = await startTestApp(
    { mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: undefined } },
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

const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

async function confirmationToken(email: string): Promise<string> {
  const message = await smtp.waitFor(mailTo(email, /Confirm your email/));
  return tokenOf(linkIn(message, `${app.url}/confirm-email#token=`));
}

async function profileOf(client: ReturnType<TestApp['client']>): Promise<Profile> {
  return Profile.parse((await client.get('/api/user/profile')).body);
}

/** Whether a reset mail for this login reaches this address within a moment. */
async function resetMailArrives(login: string, email: string): Promise<boolean> {
  const before = smtp.messages.filter(mailTo(email, /Reset your/)).length;
  await app.client().post('/api/auth/forgot-password', { login });
  await new Promise((resolve) => setTimeout(resolve, 600));
  return smtp.messages.filter(mailTo(email, /Reset your/)).length > before;
}

describe('confirmed email addresses', () => {
  it('mails a registration email a link; the address counts only once it is followed', async () => {
    const username = uniqueName('reg');
    const email = `${username}@example.com`;
    const password = 'correct horse battery';
    const client = app.client();
    expect((await client.post('/api/auth/register', { username, email, password })).status).toBe(
      201,
    );
    const token = await confirmationToken(email);
    const message = smtp.messages.find(mailTo(email, /Confirm your email/));
    // the default sender: the site's name
    expect(message?.from?.value[0]?.name).toBe('GameDev Portfolio');
    expect(message?.html).toContain('/confirm-email#token=');

    await client.post('/api/auth/login', { username, password });
    expect(await profileOf(client)).toMatchObject({ email, email_confirmed: false });
    expect(await resetMailArrives(email, email)).toBe(false);

    const confirmed = await app.client().post('/api/auth/confirm-email', { token });
    expect(confirmed.status).toBe(200);
    expect(await profileOf(client)).toMatchObject({ email, email_confirmed: true });
    expect(await resetMailArrives(email, email)).toBe(true);

    // once only
    const again = await app.client().post('/api/auth/confirm-email', { token });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: { code: 'INVALID_CONFIRM_LINK' } });
  });

  it('lets a user change a confirmed email: the new one waits for its link, the old one is told', async () => {
    const user = await signedInClient(app);
    const first = `${user.username}@example.com`;
    const second = `${user.username}@example.org`;
    expect((await user.client.post('/api/user/update-email', { email: first })).body).toEqual({
      message: 'Email updated successfully',
    });
    await app.client().post('/api/auth/confirm-email', { token: await confirmationToken(first) });
    expect(await profileOf(user.client)).toMatchObject({ email: first, email_confirmed: true });

    // saving the same confirmed address again changes nothing and sends nothing
    await user.client.post('/api/user/update-email', { email: first.toUpperCase() });
    expect(await profileOf(user.client)).toMatchObject({ email_confirmed: true });

    const changed = await user.client.post('/api/user/update-email', { email: second });
    expect(changed.status).toBe(200);
    await smtp.waitFor(mailTo(first, /was changed/));
    const token = await confirmationToken(second);
    expect(await profileOf(user.client)).toMatchObject({ email: second, email_confirmed: false });
    // neither address gets a reset before the new one is confirmed
    expect(await resetMailArrives(second, second)).toBe(false);
    expect(await resetMailArrives(first, first)).toBe(false);

    // the first address's old link cannot confirm anything now
    await app.client().post('/api/auth/confirm-email', { token });
    expect(await profileOf(user.client)).toMatchObject({ email: second, email_confirmed: true });
    expect(await resetMailArrives(user.username, second)).toBe(true);
  });

  it('refuses a link whose address is no longer the user’s', async () => {
    const user = await signedInClient(app);
    const first = `${user.username}@example.net`;
    await user.client.post('/api/user/update-email', { email: first });
    const stale = await confirmationToken(first);
    await user.client.post('/api/user/update-email', { email: `${user.username}@example.com` });
    const response = await app.client().post('/api/auth/confirm-email', { token: stale });
    expect(response.status).toBe(400);
    expect(await profileOf(user.client)).toMatchObject({ email_confirmed: false });
  });

  it('answers bad tokens with a 400', async () => {
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(500) }, { token: 'A'.repeat(43) }]) {
      expect((await app.client().post('/api/auth/confirm-email', body)).status).toBe(400);
    }
  });
});
