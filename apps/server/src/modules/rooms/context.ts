import type {
  ChatStatus,
  GameRoomSettings,
  RoomPlayer,
  RoomView,
  RoomsServerToClientEvents,
} from '@portfolio/types/rooms';

import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/errors.js';
import type { RoomSnapshot, RoomStore, Seat } from './store.js';

/*
 * What the room service's commands share: the store, the clock, this replica, the emitter (the
 * one way the service reaches Socket.IO, attached by realtime/rooms-namespace.ts) and the
 * presentation of a room.
 */

type Events = RoomsServerToClientEvents;

/** The one way the service reaches the sockets of a room (every replica's, through the adapter). */
export interface RoomsEmitter {
  /** To everyone in the room (but one socket when `exceptSocketId`). */
  toRoom<E extends keyof Events>(
    code: string,
    event: E,
    payload: Parameters<Events[E]>[0],
    exceptSocketId?: string,
  ): void;
  /** To one seat's (or spectator's) socket. */
  toPlayer<E extends keyof Events>(
    code: string,
    playerId: string,
    event: E,
    payload: Parameters<Events[E]>[0],
  ): void;
  /** A chat line to those in the room who may read chat. */
  toChat(code: string, payload: Parameters<Events['chat:message']>[0]): void;
  /** Tells the room it was closed and takes every socket out of it. */
  closeRoom(code: string, reason: 'admin' | 'gone'): void;
  /** A user's chat status changed: their connected sockets are told (and a ban stops chat). */
  chatStatusChanged(userId: string, status: ChatStatus): void;
}

/** Who asks: a signed-in user (their username) or a guest ("Guest 4821"). */
export interface RoomIdentity {
  userId: string | null;
  name: string;
}

/** The connection asking: this replica's socket. */
export interface RoomConnection {
  socketId: string;
}

/** A socket's place in a room (kept on the socket by the namespace). */
export interface RoomMember {
  code: string;
  gameId: string;
  playerId: string;
  isSpectator: boolean;
  name: string;
  userId: string | null;
  socketId: string;
}

/** The game a socket plays, as the namespace resolved it at the handshake. */
export interface RoomGame {
  id: string;
  settings: GameRoomSettings;
}

export interface RoomsContext {
  db: Db;
  store: RoomStore;
  now: () => number;
  replicaId: string;
  emitter: () => RoomsEmitter;
  /** A game's room settings now (the catalogue's; defaults when never set). */
  settingsOf: (gameId: string) => GameRoomSettings;
}

export const roomError = (
  code:
    | 'ROOM_NOT_FOUND'
    | 'ROOM_FULL'
    | 'ROOM_CLOSED'
    | 'ROOM_SPECTATOR'
    | 'NOT_IN_ROOM'
    | 'ROOM_MESSAGE_TOO_LARGE'
    | 'ROOM_STATE_FULL'
    | 'CHAT_OFF'
    | 'CHAT_MUTED'
    | 'RATE_LIMITED'
    | 'ROOMS_SIGN_IN'
    | 'BAD_REQUEST',
  message?: string,
) => new HttpError(code, message === undefined ? {} : message);

export function toRoomPlayer(room: RoomSnapshot['room'], seat: Seat): RoomPlayer {
  return {
    id: seat.playerId,
    name: seat.name,
    isHost: room.hostId === seat.playerId,
    isSpectator: seat.isSpectator,
    away: seat.awayUntil !== null,
  };
}

/** Players first (in join order), then spectators. */
export function orderedSeats(seats: Seat[]): Seat[] {
  return [...seats].sort(
    (a, b) => Number(a.isSpectator) - Number(b.isSpectator) || a.order - b.order,
  );
}

export const seatedPlayers = (seats: Seat[]) => seats.filter((seat) => !seat.isSpectator);

/** The room as a client sees it, with its state (values parsed back from JSON text). */
export async function presentRoom(
  context: RoomsContext,
  snapshot: RoomSnapshot,
): Promise<RoomView> {
  const { room } = snapshot;
  const stored = await context.store.state(room.code);
  const state: RoomView['state'] = {};
  for (const [key, text] of Object.entries(stored)) {
    state[key] = JSON.parse(text) as RoomView['state'][string];
  }
  return {
    code: room.code,
    gameId: room.gameId,
    private: room.isPrivate,
    maxPlayers: room.maxPlayers,
    players: orderedSeats(snapshot.seats).map((seat) => toRoomPlayer(room, seat)),
    state,
    chat: context.settingsOf(room.gameId).chat,
    createdAt: new Date(room.createdAt).toISOString(),
  };
}

/** The seat that takes the host's place: the longest-seated present player, else any player. */
export function nextHost(seats: Seat[]): Seat | undefined {
  const players = seatedPlayers(seats).sort((a, b) => a.order - b.order);
  return players.find((seat) => seat.awayUntil === null) ?? players[0];
}

/** Whether a room has no one left to hold it (no present or away player). */
export const isEmptyRoom = (seats: Seat[]) => seatedPlayers(seats).length === 0;
