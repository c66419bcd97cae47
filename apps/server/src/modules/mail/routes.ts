import { Router } from 'express';
import { z } from 'zod';

import type { MailMessageResponse, MailOutboxEntry } from '@portfolio/types';

import { requireAdmin } from '../../access/policies.js';
import { HttpError } from '../../lib/errors.js';
import { parseInput } from '../../lib/validate.js';
import type { MailQueue, MailRow } from './queue.js';
import { isUnsubscribeToken } from './subscriber-mail.js';

const UnsubscribeQuery = z.object({ u: z.guid(), t: z.string().max(64) });
const MessageParams = z.object({ id: z.guid({ error: 'must be a message id' }) });

const page = (words: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Email preferences</title></head><body><p>${words}</p><p><a href="/profile">Profile</a></p></body></html>`;

const toEntry = (row: MailRow): MailOutboxEntry => ({
  id: row.id,
  created_at: row.createdAt.toISOString(),
  kind: row.kind,
  to: row.recipient,
  subject: row.subject,
  text: row.text,
  status: row.status,
  attempts: row.attempts,
  last_error: row.lastError,
  sent_at: row.sentAt ? row.sentAt.toISOString() : null,
});

/** Where a reader's choice of mail is kept (the users module's repo; mail owns no user rows). */
export interface MailPreferences {
  setMailOptOut(userId: string, mailOptOut: boolean): Promise<void>;
}

const messageNotFound = () => new HttpError('MAIL_NOT_FOUND');

/**
 * GET /admin/mail: the newest 100 messages, sent or kept (the outbox without SMTP_URL).
 * GET /admin/mail/:id: one message. POST /admin/mail/:id/resend: a copy queued as a new message
 * (201 with the copy), the first one left as it was.
 * GET /mail/unsubscribe?u=&t=: a subscription-news mail's unsubscribe link (List-Unsubscribe).
 */
export function createMailRouter(deps: {
  mail: MailQueue;
  preferences: MailPreferences;
  secret: string;
}): Router {
  const router = Router();
  router.get('/mail/unsubscribe', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const query = UnsubscribeQuery.safeParse(req.query);
    if (!query.success || !isUnsubscribeToken(deps.secret, query.data.u, query.data.t)) {
      res.status(400).type('html').send(page('This unsubscribe link is not valid.'));
      return;
    }
    await deps.preferences.setMailOptOut(query.data.u, true);
    res
      .type('html')
      .send(
        page(
          'You will no longer get subscription news by email. Mail about payments and your password still comes. You can turn the news back on from your profile.',
        ),
      );
  });
  router.get('/admin/mail', requireAdmin, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json((await deps.mail.list()).map(toEntry) satisfies MailOutboxEntry[]);
  });
  router.get('/admin/mail/:id', requireAdmin, async (req, res) => {
    const { id } = parseInput(MessageParams, req.params);
    const row = await deps.mail.find(id);
    if (!row) {
      throw messageNotFound();
    }
    res.set('Cache-Control', 'no-store');
    res.json({ message: toEntry(row) } satisfies MailMessageResponse);
  });
  router.post('/admin/mail/:id/resend', requireAdmin, async (req, res) => {
    const { id } = parseInput(MessageParams, req.params);
    const copy = await deps.mail.resend(id);
    if (!copy) {
      throw messageNotFound();
    }
    res.status(201).json({ message: toEntry(copy) } satisfies MailMessageResponse);
  });
  return router;
}
