import { SITE_NAME } from '@portfolio/types/site';

import type { MailMessage } from './queue.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

interface Body {
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Said after the action (what to do if this was not you). */
  after?: string[];
  /** Non-essential mail: the link that turns it off. */
  unsubscribeUrl?: string;
}

/** Plain text and simple HTML of the same words, in the site's name. */
export function renderBody(body: Body): { text: string; html: string } {
  const text = [
    body.greeting,
    '',
    ...body.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    ...(body.after ?? []).flatMap((paragraph) => [paragraph, '']),
    `— ${SITE_NAME}`,
    ...(body.unsubscribeUrl ? ['', `Stop these emails: ${body.unsubscribeUrl}`] : []),
  ].join('\n');
  const paragraph = (words: string) => `<p>${escapeHtml(words)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">',
    paragraph(body.greeting),
    ...body.paragraphs.map(paragraph),
    ...(body.action
      ? [
          `<p><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(body.action.label)}</a></p>`,
          `<p style="font-size:12px;color:#555">Or open this address: ${escapeHtml(body.action.url)}</p>`,
        ]
      : []),
    ...(body.after ?? []).map(paragraph),
    paragraph(`— ${SITE_NAME}`),
    ...(body.unsubscribeUrl
      ? [
          `<p style="font-size:12px;color:#555"><a href="${escapeHtml(body.unsubscribeUrl)}">Stop these emails</a></p>`,
        ]
      : []),
    '</body></html>',
  ].join('\n');
  return { text, html };
}

const NOT_YOU = 'If you did not ask for this, you can ignore this email.';

export function passwordResetMail(input: {
  to: string;
  username: string;
  url: string;
  minutes: number;
}): MailMessage {
  return {
    kind: 'password-reset',
    to: input.to,
    subject: `Reset your ${SITE_NAME} password`,
    ...renderBody({
      greeting: `Hello ${input.username},`,
      paragraphs: [
        'Someone asked to reset the password of your account. The link below sets a new one.',
        `It works once, within ${input.minutes} minutes.`,
      ],
      action: { label: 'Choose a new password', url: input.url },
      after: [NOT_YOU + ' Your password stays as it is.'],
    }),
  };
}

export function passwordChangedMail(input: {
  to: string;
  username: string;
  url: string;
}): MailMessage {
  return {
    kind: 'password-changed',
    to: input.to,
    subject: `Your ${SITE_NAME} password was changed`,
    ...renderBody({
      greeting: `Hello ${input.username},`,
      paragraphs: [
        'The password of your account was just changed, and every session signed in with the old one was ended.',
        'If this was not you, reset your password at once with "Forgot password?" on the sign-in page.',
      ],
      action: { label: 'Sign in', url: input.url },
    }),
  };
}

export function emailConfirmMail(input: {
  to: string;
  username: string;
  url: string;
  hours: number;
}): MailMessage {
  return {
    kind: 'email-confirm',
    to: input.to,
    subject: `Confirm your email address for ${SITE_NAME}`,
    ...renderBody({
      greeting: `Hello ${input.username},`,
      paragraphs: [
        'Please confirm that this address is yours. Until then it is not used for password resets or account mail.',
        `The link works once, within ${input.hours} hours.`,
      ],
      action: { label: 'Confirm my email address', url: input.url },
      after: [NOT_YOU],
    }),
  };
}

export function emailChangedMail(input: {
  to: string;
  username: string;
  newAddress: string;
}): MailMessage {
  return {
    kind: 'email-changed',
    to: input.to,
    subject: `The email address of your ${SITE_NAME} account was changed`,
    ...renderBody({
      greeting: `Hello ${input.username},`,
      paragraphs: [
        `The email address of your account was changed to ${input.newAddress}. This address will no longer receive its mail.`,
        'If this was not you, sign in and change your password and email address, or contact the site owner.',
      ],
    }),
  };
}

/** Someone registered with an address an account already uses; the new account did not get it. */
export function registrationAttemptMail(input: {
  to: string;
  username: string;
  signInUrl: string;
  resetUrl: string;
}): MailMessage {
  return {
    kind: 'registration-attempt',
    to: input.to,
    subject: `Someone tried to register with your email address on ${SITE_NAME}`,
    ...renderBody({
      greeting: `Hello ${input.username},`,
      paragraphs: [
        'Someone just registered a new account with this email address. Your account already uses it, so the new account was made without it and this address stays with your account.',
        'If it was you, you already have an account: sign in with your username. If you forgot your password, you can reset it.',
      ],
      action: { label: 'Sign in', url: input.signInUrl },
      after: [
        `Forgot your password? ${input.resetUrl}`,
        'If this was not you, you can ignore this email.',
      ],
    }),
  };
}
