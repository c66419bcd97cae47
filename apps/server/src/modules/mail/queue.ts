import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';

import { EMAIL_PATTERN } from '@portfolio/types';
import { SITE_NAME } from '@portfolio/types/site';

import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { moduleLogger } from '../../lib/logger.js';

const mailLog = moduleLogger('mail');

export type MailRow = typeof mailOutbox.$inferSelect;

/** One message as a template makes it. */
export interface MailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** Queued at most once under this key (a replayed webhook, a repeated event). */
  dedupeKey?: string;
}

/** How the worker sends one message: SMTP through nodemailer, or nothing (the outbox). */
export interface MailTransport {
  send(message: MailRow & { from: string }): Promise<void>;
}

export interface MailRetry {
  /** The wait after the first failure; doubled each time up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures after which a message is given up (status failed). */
  maxAttempts: number;
  /** How often due messages are looked for besides the nudge an enqueue gives. */
  pollIntervalMs: number;
}

/** 30 s, 1 min, 2 min … 1 h, for about three days: an SMTP outage of a weekend loses nothing. */
export const DEFAULT_MAIL_RETRY: MailRetry = {
  baseDelayMs: 30_000,
  maxDelayMs: 60 * 60_000,
  maxAttempts: 80,
  pollIntervalMs: 15_000,
};

/** How long a worker holds a claimed message before another may try it (a crash mid-send). */
const CLAIM_MS = 2 * 60_000;
const BATCH = 20;
const NOT_BARE_ADDRESS = 'the recipient is not a bare email address';

/** SMTP through nodemailer (SMTP_URL). */
export function createSmtpTransport(smtpUrl: string): MailTransport & { close(): void } {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.recipient,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
      });
    },
    close() {
      transporter.close();
    },
  };
}

/** The sender when MAIL_FROM is unset: the site's name at no-reply@ its host. */
export function defaultMailFrom(siteOrigin: string): string {
  const host = new URL(siteOrigin).hostname.replace(/^\[|\]$/g, '');
  const domain = host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost.localdomain';
  return `${SITE_NAME} <no-reply@${domain}>`;
}

export interface MailQueue {
  /** Queues a message (one insert) and nudges the worker; never waits for SMTP. */
  enqueue(message: MailMessage): Promise<void>;
  /** Sends (or keeps) every due message now; resolves when this pass is done. */
  deliverDue(): Promise<void>;
  /** The newest messages, for the admin's outbox. */
  list(limit?: number): Promise<MailRow[]>;
  /** One message of the outbox, undefined when there is none with that id. */
  find(id: string): Promise<MailRow | undefined>;
  /**
   * Queues a copy of a message (same recipient, subject, text, HTML and headers) as a new one,
   * so the first keeps its history; undefined when there is no message with that id.
   */
  resend(id: string): Promise<MailRow | undefined>;
  start(): void;
  close(): Promise<void>;
}

async function findMessage(db: Db, id: string): Promise<MailRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}

/**
 * A new pending copy of a message (no dedupe key: asked for on purpose, however often), then
 * `queued` (the worker's nudge); undefined when there is no such message.
 */
async function insertCopy(db: Db, id: string, queued: () => void): Promise<MailRow | undefined> {
  const original = await findMessage(db, id);
  if (!original) {
    return undefined;
  }
  const [copy] = await db
    .insert(mailOutbox)
    .values({
      kind: original.kind,
      recipient: original.recipient,
      subject: original.subject,
      text: original.text,
      html: original.html,
      headers: original.headers,
    })
    .returning();
  queued();
  return copy;
}

/**
 * The mail queue: requests insert a row; a worker in each process claims due rows (a claim pushes
 * next_attempt_at forward, so two processes never send one message together) and sends them,
 * retrying failures with backoff. Without a transport (no SMTP_URL) a message is marked kept: the
 * admin's outbox is where it is read, and a line says so in the log.
 */
export function createMailQueue(deps: {
  db: Db;
  transport: MailTransport | undefined;
  from: () => string;
  retry?: MailRetry;
  log?: (line: string) => void;
}): MailQueue {
  const { db, transport } = deps;
  const retry = deps.retry ?? DEFAULT_MAIL_RETRY;
  const log = deps.log ?? ((line: string) => mailLog.info(line));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function claimDue(): Promise<MailRow[]> {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() + ${`${CLAIM_MS} milliseconds`}::interval` })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  async function deliver(row: MailRow): Promise<void> {
    // Defence in depth behind the contracts' email rule: nodemailer parses the recipient as an
    // address list ('name<other@host>', encoded words), so only a bare address is ever sent to.
    if (!EMAIL_PATTERN.test(row.recipient)) {
      await db
        .update(mailOutbox)
        .set({ status: 'failed', attempts: row.attempts + 1, lastError: NOT_BARE_ADDRESS })
        .where(eq(mailOutbox.id, row.id));
      mailLog.warn(`not sent: "${row.subject}" (message ${row.id}): ${NOT_BARE_ADDRESS}`);
      return;
    }
    if (!transport) {
      await db
        .update(mailOutbox)
        .set({ status: 'kept', sentAt: new Date() })
        .where(eq(mailOutbox.id, row.id));
      // the message id, not the recipient: addresses stay out of the logs
      log(`kept in the outbox (no SMTP_URL): "${row.subject}" (message ${row.id})`);
      return;
    }
    try {
      await transport.send({ ...row, from: deps.from() });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, row.id));
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempts - 1));
      const message = error instanceof Error ? error.message : String(error);
      const givenUp = attempts >= retry.maxAttempts;
      await db
        .update(mailOutbox)
        .set({
          attempts,
          lastError: message.slice(0, 500),
          status: givenUp ? 'failed' : 'pending',
          nextAttemptAt: new Date(Date.now() + delay),
        })
        .where(eq(mailOutbox.id, row.id));
      mailLog.warn(
        `sending "${row.subject}" failed (attempt ${attempts}${givenUp ? ', given up' : ''}): ${message}`,
      );
    }
  }

  async function pass(): Promise<void> {
    for (;;) {
      const rows = await claimDue();
      for (const row of rows) {
        await deliver(row);
      }
      if (rows.length < BATCH) {
        return;
      }
    }
  }

  /** One pass at a time; a nudge during a pass runs another after it. */
  function deliverDue(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !closed);
      } catch (error) {
        mailLog.error({ err: error }, 'delivery pass failed');
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  const nudge = () => {
    if (!closed) {
      setImmediate(() => void deliverDue());
    }
  };

  return {
    async enqueue(message) {
      await db
        .insert(mailOutbox)
        .values({
          kind: message.kind,
          recipient: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers ?? {},
          dedupeKey: message.dedupeKey ?? null,
        })
        .onConflictDoNothing();
      nudge();
    },
    deliverDue,
    list: (limit = 100) =>
      db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit),
    find: (id) => findMessage(db, id),
    resend: (id) => insertCopy(db, id, nudge),
    start() {
      timer ??= setInterval(() => void deliverDue(), retry.pollIntervalMs).unref();
      void deliverDue();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
