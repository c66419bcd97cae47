import { Router } from 'express';

import type { MailOutboxEntry } from '@portfolio/types';

import { requireAdmin } from '../auth/policies.js';
import type { MailQueue, MailRow } from './queue.js';

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

/** GET /admin/mail: the newest 100 messages, sent or kept (the outbox without SMTP_URL). */
export function createMailRouter(deps: { mail: MailQueue }): Router {
  const router = Router();
  router.get('/admin/mail', requireAdmin, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json((await deps.mail.list()).map(toEntry) satisfies MailOutboxEntry[]);
  });
  return router;
}
