import { z } from 'zod';

import { EMAIL_PATTERN, INVALID_EMAIL_MESSAGE, Password } from './auth.js';

/**
 * POST /api/auth/forgot-password: a username or an email address. Usernames have no '@', so a
 * login with one is an address and passes the one email rule (a bare address only).
 */
export const ForgotPasswordRequest = z.object({
  login: z
    .string()
    .trim()
    .min(1, 'Please enter your username or email')
    .max(254, 'is too long')
    .refine((login) => !login.includes('@') || EMAIL_PATTERN.test(login), INVALID_EMAIL_MESSAGE),
});
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** The one answer to a forgot-password request, whether or not the account exists. */
export const FORGOT_PASSWORD_MESSAGE =
  'If an account with a confirmed email address matches, a link to reset its password is on its way. It works once, within 30 minutes.';

/** POST /api/auth/reset-password: the token from the link and the new password (registration's rule). */
export const ResetPasswordRequest = z.object({
  token: z.string().min(1, 'is required').max(128, 'is too long'),
  password: Password,
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please sign in with it.';

/** POST /api/auth/confirm-email's answer. */
export const EMAIL_CONFIRMED_MESSAGE = 'Your email address is confirmed.';

/** POST /api/users/{userId}/reset-link: a one-time link the admin hands over another way. */
export const AdminResetLinkResponse = z.object({
  url: z.string(),
  expires_at: z.string(),
});
export type AdminResetLinkResponse = z.infer<typeof AdminResetLinkResponse>;

export const MAIL_STATUSES = ['pending', 'sent', 'kept', 'failed'] as const;

/** GET /api/admin/mail: one message of the outbox, newest first. */
export const MailOutboxEntry = z.object({
  id: z.string(),
  created_at: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
});
export type MailOutboxEntry = z.infer<typeof MailOutboxEntry>;
export const MailOutbox = z.array(MailOutboxEntry);

/** GET /api/admin/mail/{id}: one message; POST /api/admin/mail/{id}/resend: the copy queued. */
export const MailMessageResponse = z.object({ message: MailOutboxEntry });
export type MailMessageResponse = z.infer<typeof MailMessageResponse>;

/** The admin's word for each state of a message. */
export const MAIL_STATUS_LABELS: Readonly<Record<MailOutboxEntry['status'], string>> = {
  pending: 'Waiting to be sent',
  sent: 'Sent',
  kept: 'Kept in the outbox (no SMTP)',
  failed: 'Failed',
};

/** POST /api/auth/confirm-email: the token of a confirmation link. */
export const ConfirmEmailRequest = z.object({
  token: z.string().min(1, 'is required').max(128, 'is too long'),
});
export type ConfirmEmailRequest = z.infer<typeof ConfirmEmailRequest>;
