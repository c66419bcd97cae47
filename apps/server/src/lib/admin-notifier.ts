import type { Server, Socket } from 'socket.io';

import type { ClientToServerEvents, CurrentUser, ServerToClientEvents } from '@portfolio/types';

/** What a socket carries after the handshake. */
export interface SocketData {
  user: CurrentUser | undefined;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export const ADMINS_ROOM = 'admins';

type EventArgs<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

/**
 * The one module that emits Socket.IO events. Services get it from the container before the
 * Socket.IO server exists; `createRealtime` attaches the server later. Until then (and in
 * scripts without a server) emits go nowhere.
 */
export interface AdminNotifier {
  toAdmins<E extends keyof ServerToClientEvents>(event: E, ...args: EventArgs<E>): void;
  /**
   * Whether an emit could reach anyone: a local admin socket, or any process when the adapter is
   * shared (then other processes' admins may be listening, and an emit is one cheap publish).
   */
  hasAudience(): boolean;
  /** Called whenever an admin socket connects, so a fresh snapshot can be sent. */
  onAdminJoined(listener: () => void): void;
  attach(io: RealtimeServer, options: { isShared: boolean }): void;
  detach(): void;
  /** Signals an admin joined (used by createRealtime). */
  adminJoined(): void;
}

export function createAdminNotifier(): AdminNotifier {
  let io: RealtimeServer | undefined;
  let isShared = false;
  const joinListeners: Array<() => void> = [];
  return {
    toAdmins(event, ...args) {
      io?.to(ADMINS_ROOM).emit(event, ...args);
    },
    hasAudience() {
      if (!io) {
        return false;
      }
      return isShared || (io.sockets.adapter.rooms.get(ADMINS_ROOM)?.size ?? 0) > 0;
    },
    onAdminJoined(listener) {
      joinListeners.push(listener);
    },
    attach(server, options) {
      io = server;
      isShared = options.isShared;
    },
    detach() {
      io = undefined;
    },
    adminJoined() {
      joinListeners.forEach((listener) => listener());
    },
  };
}
