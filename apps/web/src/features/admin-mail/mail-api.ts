import { MailMessageResponse, MailOutbox, type MailOutboxEntry } from '@portfolio/types';

import { http } from '../../lib/http';

/** The outbox's newest 100 messages, newest first (GET /api/admin/mail). */
export function listMail(signal?: AbortSignal): Promise<MailOutboxEntry[]> {
  return http.get('/api/admin/mail', MailOutbox, signal);
}

/** One message (GET /api/admin/mail/{id}); MAIL_NOT_FOUND when there is none. */
export async function getMail(id: string, signal?: AbortSignal): Promise<MailOutboxEntry> {
  const { message } = await http.get(
    `/api/admin/mail/${encodeURIComponent(id)}`,
    MailMessageResponse,
    signal,
  );
  return message;
}

/** Queues a copy of a message as a new one and answers the copy. */
export async function resendMail(id: string): Promise<MailOutboxEntry> {
  const { message } = await http.post(
    `/api/admin/mail/${encodeURIComponent(id)}/resend`,
    undefined,
    MailMessageResponse,
  );
  return message;
}
