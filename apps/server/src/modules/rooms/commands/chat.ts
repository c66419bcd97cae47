import { randomUUID } from 'node:crypto';

import { desc, eq } from 'drizzle-orm';

import {
  CHAT_MESSAGES_PER_WINDOW,
  CHAT_RATE_WINDOW_SECONDS,
  type ChatReport,
  type ChatStatus,
  type SetChatStatusRequest,
} from '@portfolio/types/rooms';

import { chatReports, users } from '../../../db/schema.js';
import type { Actor } from '../../../access/audit.js';
import { recordAudit } from '../../../access/audit.js';
import { userNotFound } from '../../../lib/errors.js';
import { type RoomMember, type RoomsContext, roomError } from '../context.js';

/*
 * The rooms' chat: plain text kept and sent exactly as written (the viewer shows it as text),
 * a rate per player, the game's switch, and the admin's site-wide mute or ban, read from the
 * database at every line (so it holds across reconnects and replicas at once). Spectators may
 * chat too, as players may; a muted or banned user may not, whatever their place.
 */

/** A user's chat status now (a guest's is always 'allowed'). */
export async function chatStatusOf(
  context: RoomsContext,
  userId: string | null,
): Promise<ChatStatus> {
  if (userId === null) {
    return 'allowed';
  }
  const [row] = await context.db
    .select({ status: users.chatStatus })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.status ?? 'allowed';
}

/** Lines per player in the window (this process: a player's socket is on one replica). */
export function createChatLimiter(now: () => number) {
  const sent = new Map<string, number[]>();
  return {
    take(playerId: string): boolean {
      const since = now() - CHAT_RATE_WINDOW_SECONDS * 1000;
      const times = (sent.get(playerId) ?? []).filter((time) => time > since);
      if (times.length >= CHAT_MESSAGES_PER_WINDOW) {
        sent.set(playerId, times);
        return false;
      }
      times.push(now());
      sent.set(playerId, times);
      return true;
    },
    forget(playerId: string): void {
      sent.delete(playerId);
    },
  };
}

export async function sendChat(
  context: RoomsContext,
  member: RoomMember,
  text: string,
  limiter: ReturnType<typeof createChatLimiter>,
): Promise<void> {
  if (!context.settingsOf(member.gameId).chat) {
    throw roomError('CHAT_OFF');
  }
  if ((await chatStatusOf(context, member.userId)) !== 'allowed') {
    throw roomError('CHAT_MUTED');
  }
  if (!limiter.take(member.playerId)) {
    throw roomError(
      'RATE_LIMITED',
      `At most ${CHAT_MESSAGES_PER_WINDOW} messages in ${CHAT_RATE_WINDOW_SECONDS} seconds.`,
    );
  }
  const line = {
    id: randomUUID(),
    from: { id: member.playerId, name: member.name },
    text,
    at: new Date(context.now()).toISOString(),
  };
  await context.store.addChat(member.code, { ...line, authorUserId: member.userId });
  context.emitter().toChat(member.code, line);
}

/** A line of this room's recent chat reported to the admin (once per reporter). */
export async function reportChat(
  context: RoomsContext,
  member: RoomMember,
  messageId: string,
): Promise<void> {
  const line = (await context.store.chat(member.code)).find((entry) => entry.id === messageId);
  if (!line) {
    throw roomError('BAD_REQUEST', 'messageId: no such message in this room');
  }
  await context.db
    .insert(chatReports)
    .values({
      gameId: member.gameId,
      roomCode: member.code,
      messageId: line.id,
      messageText: line.text,
      messageAt: new Date(line.at),
      authorUserId: line.authorUserId,
      authorName: line.from.name,
      reporterUserId: member.userId,
      reporterName: member.name,
    })
    .onConflictDoNothing();
}

/** The admin mutes, bans or allows a user in chat (audited); their sockets are told at once. */
export async function setChatStatus(
  context: RoomsContext,
  userId: string,
  request: SetChatStatusRequest,
  actor: Actor,
): Promise<ChatStatus> {
  const changed = await context.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ username: users.username, status: users.chatStatus })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!row) {
      throw userNotFound();
    }
    if (row.status === request.status) {
      return false;
    }
    await tx.update(users).set({ chatStatus: request.status }).where(eq(users.id, userId));
    await recordAudit(tx, {
      action: 'chat-status',
      actor,
      target: { id: userId, username: row.username },
      oldValue: row.status,
      newValue: request.reason ? `${request.status}: ${request.reason}` : request.status,
    });
    return true;
  });
  if (changed) {
    context.emitter().chatStatusChanged(userId, request.status);
  }
  return request.status;
}

/** The newest reports first (the last 200). */
export async function listChatReports(context: RoomsContext): Promise<ChatReport[]> {
  const rows = await context.db
    .select()
    .from(chatReports)
    .orderBy(desc(chatReports.createdAt))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    gameId: row.gameId,
    roomCode: row.roomCode,
    message: { id: row.messageId, text: row.messageText, at: row.messageAt.toISOString() },
    author: { userId: row.authorUserId, name: row.authorName },
    reporter: { userId: row.reporterUserId, name: row.reporterName },
    createdAt: row.createdAt.toISOString(),
  }));
}
