import { createHmac, timingSafeEqual } from 'node:crypto';

import { and, eq, gt, isNotNull, lte } from 'drizzle-orm';

import { SITE_NAME } from '@portfolio/types/site';

import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { SubscriptionNotice } from '../subscription/index.js';
import type { MailQueue } from './queue.js';
import { renderBody } from './templates.js';

/** The HMAC an unsubscribe link carries for a user: no session needed, no guessing others'. */
export function unsubscribeToken(secret: string, userId: string): string {
  return createHmac('sha256', secret)
    .update(`unsubscribe:${userId}`)
    .digest('base64url')
    .slice(0, 32);
}

export function isUnsubscribeToken(secret: string, userId: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(secret, userId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The link in a news mail's footer and List-Unsubscribe header that turns news off. */
function unsubscribeUrlFor(origin: string, secret: string, userId: string): string {
  return `${origin}/api/mail/unsubscribe?u=${userId}&t=${unsubscribeToken(secret, userId)}`;
}

/** How long before an admin-granted subscription ends its holder is told. */
export const GRANT_ENDING_NOTICE_DAYS = 3;

/**
 * Tells the holders of admin-granted subscriptions that end within GRANT_ENDING_NOTICE_DAYS
 * (news: confirmed addresses of users who did not turn it off, with an unsubscribe link). Queued
 * once per grant end date, however often it runs; answers how many were queued.
 */
export function createGrantEndingMail(deps: {
  db: Db;
  mail: MailQueue;
  siteOrigin: () => string;
  secret: string;
}) {
  const { db, mail, siteOrigin, secret } = deps;
  return async function mailGrantsEndingSoon(now = new Date()): Promise<number> {
    const soon = new Date(now.getTime() + GRANT_ENDING_NOTICE_DAYS * 86_400_000);
    const holders = await db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        endsAt: users.subscriptionGrantEndsAt,
      })
      .from(users)
      .where(
        and(
          isNotNull(users.subscriptionGrantedAt),
          gt(users.subscriptionGrantEndsAt, now),
          lte(users.subscriptionGrantEndsAt, soon),
          isNotNull(users.emailConfirmedAt),
          eq(users.mailOptOut, false),
        ),
      );
    const origin = siteOrigin();
    for (const holder of holders) {
      if (!holder.email || !holder.endsAt) {
        continue;
      }
      const unsubscribeUrl = unsubscribeUrlFor(origin, secret, holder.id);
      await mail.enqueue({
        kind: 'grant-ending',
        to: holder.email,
        subject: `Your ${SITE_NAME} subscription is ending`,
        ...renderBody({
          greeting: `Hello ${holder.username},`,
          paragraphs: [
            `The subscription you were given ends on ${holder.endsAt.toUTCString()}. You keep the subscriber games until then; to go on playing them after, you can subscribe ($10.00 per quarter, cancel anytime).`,
          ],
          action: { label: 'Subscribe', url: `${origin}/subscribe` },
          unsubscribeUrl,
        }),
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>` },
        dedupeKey: `grant-ending:${holder.id}:${holder.endsAt.toISOString()}`,
      });
    }
    return holders.length;
  };
}

/**
 * Mail that matters to a subscriber, from the Stripe webhooks: payment failed (essential: sent
 * even to those who turned subscription news off), subscription started, ending and ended (news:
 * an unsubscribe link and List-Unsubscribe). Only to a confirmed address; queued under the
 * event's id, so a replayed webhook mails once.
 */
export function createSubscriberMail(deps: {
  db: Db;
  mail: MailQueue;
  siteOrigin: () => string;
  secret: string;
}) {
  const { db, mail, siteOrigin, secret } = deps;

  return async function notify(notice: SubscriptionNotice): Promise<void> {
    const [user] = await db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        mailOptOut: users.mailOptOut,
      })
      .from(users)
      .where(
        and(
          notice.kind === 'payment-failed'
            ? eq(users.stripeCustomerId, notice.customerId)
            : eq(users.id, notice.userId),
          isNotNull(users.emailConfirmedAt),
        ),
      )
      .limit(1);
    if (!user?.email) {
      return;
    }
    const isEssential = notice.kind === 'payment-failed';
    if (!isEssential && user.mailOptOut) {
      return;
    }
    const origin = siteOrigin();
    const unsubscribeUrl = unsubscribeUrlFor(origin, secret, user.id);
    const greeting = `Hello ${user.username},`;
    const content = {
      'payment-failed': {
        subject: `Your ${SITE_NAME} subscription payment failed`,
        paragraphs: [
          'The latest payment for your subscription did not go through. Stripe will try again; to keep playing the subscriber games, please check your card.',
        ],
        action: { label: 'Manage my subscription', url: `${origin}/profile` },
      },
      started: {
        subject: `Your ${SITE_NAME} subscription has started`,
        paragraphs: [
          'Thank you for subscribing ($10.00 per quarter, cancel anytime). The subscriber games are open to you now.',
        ],
        action: { label: 'Play the games', url: `${origin}/games` },
      },
      ending: {
        subject: `Your ${SITE_NAME} subscription is ending`,
        paragraphs: [
          `Your subscription is set to end on ${notice.kind === 'ending' ? notice.endsAt.toUTCString() : ''}. You keep the subscriber games until then.`,
        ],
        action: { label: 'Manage my subscription', url: `${origin}/profile` },
      },
      ended: {
        subject: `Your ${SITE_NAME} subscription has ended`,
        paragraphs: [
          'Your subscription has ended, and with it access to the subscriber games. You can subscribe again at any time.',
        ],
        action: { label: 'Subscribe', url: `${origin}/subscribe` },
      },
    }[notice.kind];
    await mail.enqueue({
      kind: `subscription-${notice.kind}`,
      to: user.email,
      subject: content.subject,
      ...renderBody({
        greeting,
        paragraphs: content.paragraphs,
        action: content.action,
        ...(isEssential ? {} : { unsubscribeUrl }),
      }),
      headers: isEssential ? {} : { 'List-Unsubscribe': `<${unsubscribeUrl}>` },
      dedupeKey:
        notice.kind === 'ending'
          ? `subscription-ending:${notice.subscriptionId}:${notice.endsAt.toISOString()}`
          : `subscription-${notice.kind}:${notice.eventId}`,
    });
  };
}
