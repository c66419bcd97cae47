import { and, desc, eq } from 'drizzle-orm';

import type { ContentAuditAction, ContentAuditEntry, ContentKind } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { contentAuditLog } from '../../db/schema.js';
import { type Actor, SYSTEM_ACTOR_NAME } from '../../access/audit.js';

export interface ContentAuditInput {
  kind: ContentKind;
  itemId: string | null;
  action: ContentAuditAction;
  actor: Actor;
  detail: string;
}

/** Writes one content audit entry (inside the caller's transaction when given one). */
export async function recordContentAudit(db: Db, entry: ContentAuditInput): Promise<void> {
  await db.insert(contentAuditLog).values({
    kind: entry.kind,
    itemId: entry.itemId,
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorUsername: entry.actor?.username ?? SYSTEM_ACTOR_NAME,
    detail: entry.detail.slice(0, 2000),
  });
}

/** The newest entries, of one kind (and item) or of all. */
export async function listContentAudit(
  db: Db,
  filter: { kind?: ContentKind | undefined; itemId?: string | undefined },
  limit = 100,
): Promise<ContentAuditEntry[]> {
  const rows = await db
    .select()
    .from(contentAuditLog)
    .where(
      and(
        filter.kind === undefined ? undefined : eq(contentAuditLog.kind, filter.kind),
        filter.itemId === undefined ? undefined : eq(contentAuditLog.itemId, filter.itemId),
      ),
    )
    .orderBy(desc(contentAuditLog.at), desc(contentAuditLog.id))
    .limit(limit);
  return rows.map((row) => ({
    id: String(row.id),
    at: row.at.toISOString(),
    kind: row.kind,
    itemId: row.itemId,
    action: row.action,
    actorUsername: row.actorUsername,
    detail: row.detail,
  }));
}
