import { desc, eq, or } from 'drizzle-orm';

import type { AuditAction } from '@portfolio/types';

import type { Db } from '../db/client.js';
import { auditLog } from '../db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;

/** Who acts: a signed-in admin, or null for the system (the admin:create command). */
export type Actor = { id: string; username: string } | null;

export const SYSTEM_ACTOR_NAME = 'system';

export interface AuditInput {
  action: AuditAction;
  actor: Actor;
  target: { id: string; username: string };
  oldValue: string | null;
  newValue: string | null;
}

/** Writes one audit entry (inside the caller's transaction when given one). */
export async function recordAudit(db: Db, entry: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorUsername: entry.actor?.username ?? SYSTEM_ACTOR_NAME,
    targetId: entry.target.id,
    targetUsername: entry.target.username,
    oldValue: entry.oldValue,
    newValue: entry.newValue,
  });
}

/** Audit entries about a user or made by them, newest first. */
export async function listAudit(db: Db, userId: string, limit = 100): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(or(eq(auditLog.targetId, userId), eq(auditLog.actorId, userId)))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}
