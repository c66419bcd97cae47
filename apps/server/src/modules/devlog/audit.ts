import { desc } from 'drizzle-orm';

import type { PostAuditAction, PostAuditEntry } from '@portfolio/types/devlog';

import type { Db } from '../../db/client.js';
import { postAuditLog } from '../../db/schema.js';
import { type Actor, SYSTEM_ACTOR_NAME } from '../../access/audit.js';

export interface PostAuditInput {
  action: PostAuditAction;
  actor: Actor;
  postId: string;
  postTitle: string;
  detail: string;
}

/** Writes one post audit entry (inside the caller's transaction when given one). */
export async function recordPostAudit(db: Db, entry: PostAuditInput): Promise<void> {
  await db.insert(postAuditLog).values({
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorUsername: entry.actor?.username ?? SYSTEM_ACTOR_NAME,
    postId: entry.postId,
    postTitle: entry.postTitle.slice(0, 200),
    detail: entry.detail.slice(0, 2000),
  });
}

/** The newest entries about every post. */
export async function listPostAudit(db: Db, limit = 100): Promise<PostAuditEntry[]> {
  const rows = await db
    .select()
    .from(postAuditLog)
    .orderBy(desc(postAuditLog.at), desc(postAuditLog.id))
    .limit(limit);
  return rows.map((row) => ({
    id: String(row.id),
    at: row.at.toISOString(),
    action: row.action,
    actorUsername: row.actorUsername,
    postId: row.postId,
    postTitle: row.postTitle,
    detail: row.detail,
  }));
}
