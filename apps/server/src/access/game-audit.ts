import { desc, eq } from 'drizzle-orm';

import type { GameAuditAction, GameAuditEntry } from '@portfolio/types/game-host';

import type { Db } from '../db/client.js';
import { gameAuditLog } from '../db/schema.js';
import { type Actor, SYSTEM_ACTOR_NAME } from './audit.js';

export interface GameAuditInput {
  action: GameAuditAction;
  actor: Actor;
  gameId: string | null;
  detail: string;
}

/** Writes one game audit entry (inside the caller's transaction when given one). */
export async function recordGameAudit(db: Db, entry: GameAuditInput): Promise<void> {
  await db.insert(gameAuditLog).values({
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorUsername: entry.actor?.username ?? SYSTEM_ACTOR_NAME,
    gameId: entry.gameId,
    detail: entry.detail.slice(0, 2000),
  });
}

/** The newest entries, of one game or of all. */
export async function listGameAudit(
  db: Db,
  gameId: string | undefined,
  limit = 100,
): Promise<GameAuditEntry[]> {
  const rows = await db
    .select()
    .from(gameAuditLog)
    .where(gameId === undefined ? undefined : eq(gameAuditLog.gameId, gameId))
    .orderBy(desc(gameAuditLog.at), desc(gameAuditLog.id))
    .limit(limit);
  return rows.map((row) => ({
    id: String(row.id),
    at: row.at.toISOString(),
    action: row.action,
    actorUsername: row.actorUsername,
    gameId: row.gameId,
    detail: row.detail,
  }));
}
