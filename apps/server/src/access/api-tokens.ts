import { createHash, randomBytes } from 'node:crypto';

import { and, desc, eq } from 'drizzle-orm';

import type { AdminToken, CreateAdminTokenResponse } from '@portfolio/types/game-host';
import { describeTokenCreated, describeTokenDeleted } from '@portfolio/types/game-history';

import type { Db } from '../db/client.js';
import { adminTokens, users } from '../db/schema.js';
import type { Actor } from './audit.js';
import { recordGameAudit } from './game-audit.js';

/*
 * Admin API tokens for build scripts (`Authorization: Bearer <token>`). A token is 32
 * random bytes shown once; only its SHA-256 is stored (it has full entropy: no slow hash needed).
 * It acts as the admin who made it. Demoting that admin deletes their tokens in the same
 * transaction (revokeTokensOf), so promoting them again later does not bring any back.
 */

const TOKEN_PREFIX = 'pgh_';
const TOKEN_PATTERN = /^pgh_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per token. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type TokenRow = typeof adminTokens.$inferSelect;

function present(row: TokenRow): AdminToken {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export interface AdminTokens {
  list(): Promise<AdminToken[]>;
  create(name: string, actor: NonNullable<Actor>): Promise<CreateAdminTokenResponse>;
  /** False when there is no such token. */
  delete(id: string, actor: NonNullable<Actor>): Promise<boolean>;
  /** The admin a bearer token acts as, or undefined when it is not a valid token of an admin. */
  authenticate(token: string): Promise<NonNullable<Actor> | undefined>;
}

/**
 * Deletes every API token a user made, with one audit entry each: their admin role is being
 * taken away (call it inside that change's transaction). A token revoked so is gone for good,
 * whatever role the user gets later.
 * @returns how many tokens were revoked
 */
export async function revokeTokensOf(
  tx: Db,
  userId: string,
  actor: Actor,
  reason: string,
): Promise<number> {
  const revoked = await tx
    .delete(adminTokens)
    .where(eq(adminTokens.createdBy, userId))
    .returning({ name: adminTokens.name });
  for (const token of revoked) {
    await recordGameAudit(tx, {
      action: 'token-delete',
      actor,
      gameId: null,
      detail: describeTokenDeleted(token.name, reason),
    });
  }
  return revoked.length;
}

export function createAdminTokens(db: Db): AdminTokens {
  return {
    async list() {
      const rows = await db.select().from(adminTokens).orderBy(desc(adminTokens.createdAt));
      return rows.map(present);
    },

    async create(name, actor) {
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(adminTokens)
          .values({ name, tokenHash: hashToken(token), createdBy: actor.id })
          .returning();
        if (!inserted) {
          throw new Error('token insert returned nothing');
        }
        await recordGameAudit(tx, {
          action: 'token-create',
          actor,
          gameId: null,
          detail: describeTokenCreated(name),
        });
        return inserted;
      });
      return { ...present(row), token };
    },

    async delete(id, actor) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) {
        return false;
      }
      return db.transaction(async (tx) => {
        const [deleted] = await tx.delete(adminTokens).where(eq(adminTokens.id, id)).returning();
        if (!deleted) {
          return false;
        }
        await recordGameAudit(tx, {
          action: 'token-delete',
          actor,
          gameId: null,
          detail: describeTokenDeleted(deleted.name),
        });
        return true;
      });
    },

    async authenticate(token) {
      if (!TOKEN_PATTERN.test(token)) {
        return undefined;
      }
      const [row] = await db
        .select({
          id: adminTokens.id,
          lastUsedAt: adminTokens.lastUsedAt,
          userId: users.id,
          username: users.username,
        })
        .from(adminTokens)
        .innerJoin(users, eq(users.id, adminTokens.createdBy))
        .where(and(eq(adminTokens.tokenHash, hashToken(token)), eq(users.role, 'admin')));
      if (!row) {
        return undefined;
      }
      const now = new Date();
      if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await db.update(adminTokens).set({ lastUsedAt: now }).where(eq(adminTokens.id, row.id));
      }
      return { id: row.userId, username: row.username };
    },
  };
}
