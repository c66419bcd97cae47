import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, isNull, sql } from 'drizzle-orm';

import type { Db } from '../../db/client.js';
import { emailTokens } from '../../db/schema.js';

export type TokenPurpose = 'password-reset' | 'email-confirm';

/** 32 random bytes in base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Single-use tokens whose SHA-256 alone is stored (a leaked table resets no password). */
export function createEmailTokens(db: Db) {
  return {
    /** A new token for this user and purpose; only its hash is written. */
    async issue(input: {
      userId: string;
      purpose: TokenPurpose;
      ttlMs: number;
      email?: string;
    }): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + input.ttlMs);
      await db.insert(emailTokens).values({
        tokenHash: hashToken(token),
        purpose: input.purpose,
        userId: input.userId,
        email: input.email ?? null,
        expiresAt,
      });
      return { token, expiresAt };
    },

    /** Whose a usable token is, without spending it. */
    async peek(token: string, purpose: TokenPurpose): Promise<{ userId: string } | undefined> {
      if (!TOKEN_PATTERN.test(token)) {
        return undefined;
      }
      const [row] = await db
        .select({ userId: emailTokens.userId })
        .from(emailTokens)
        .where(
          and(
            eq(emailTokens.tokenHash, hashToken(token)),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, sql`now()`),
          ),
        )
        .limit(1);
      return row;
    },

    /**
     * Marks the token used and answers whose it was, or undefined when it is unknown, used,
     * expired or of another purpose. One statement: two requests with one token cannot both win.
     */
    async consume(
      token: string,
      purpose: TokenPurpose,
    ): Promise<{ userId: string; email: string | null } | undefined> {
      if (!TOKEN_PATTERN.test(token)) {
        return undefined;
      }
      const [row] = await db
        .update(emailTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(emailTokens.tokenHash, hashToken(token)),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: emailTokens.userId, email: emailTokens.email });
      return row;
    },

    /** Ends every unused token of this purpose (a reset ends the others; a new email the old link). */
    async revokeAll(userId: string, purpose: TokenPurpose): Promise<void> {
      await db
        .update(emailTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(emailTokens.userId, userId),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
          ),
        );
    },
  };
}

export type EmailTokens = ReturnType<typeof createEmailTokens>;
