import { API_ERRORS } from '@portfolio/types/errors';
import {
  CHAT_HISTORY,
  type ChatLine,
  type ChatStatus,
  type RoomAck,
  type RoomEntered,
  type RoomPlayer,
  type RoomsSdkEvent,
  type RoomView,
} from '@portfolio/types/rooms';

import { isHttpError } from '../../lib/http';
import { roomError, type RoomsConnection } from './room-connection';

/*
 * What the room client holds: the viewer's snapshot (room, chat, notice), the seat kept in
 * sessionStorage, and the events of the service kept in step with both and passed to the frame.
 */

export type Json = RoomView['state'][string];

export interface RoomNotice {
  code: string;
  message: string;
}

/** What the viewer shows: the room this player is in, its chat, and what to tell the player. */
export interface RoomSnapshot {
  /** The game uses rooms (its frame asked at least once, or an invite link was opened). */
  isActive: boolean;
  room: RoomView | null;
  playerId: string | null;
  chat: ChatLine[];
  chatStatus: ChatStatus;
  /** What to tell the player (a closed, full or unknown room, a refusal): a catalogue code. */
  notice: RoomNotice | null;
}

/** The room this tab is in: a player's seat token, or a spectator's room (taken back alike). */
export interface StoredSeat {
  code: string;
  seatToken: string;
  isSpectator: boolean;
}

export type SeatStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const ROOM_CLOSED_NOTICE: RoomNotice = {
  code: 'ROOM_CLOSED',
  message: API_ERRORS.ROOM_CLOSED.message,
};

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** An acknowledgement's answer, or its refusal thrown as an HttpError. */
export function accepted<T extends object>(answer: RoomAck<T>): { ok: true } & T {
  if (!answer.ok) {
    throw roomError(answer.error.code, answer.error.message);
  }
  return answer;
}

function readSeat(storage: SeatStorage, key: string): StoredSeat | null {
  try {
    const stored: unknown = JSON.parse(storage.getItem(key) ?? 'null');
    return isRecord(stored) &&
      typeof stored.code === 'string' &&
      typeof stored.seatToken === 'string'
      ? { code: stored.code, seatToken: stored.seatToken, isSpectator: stored.isSpectator === true }
      : null;
  } catch {
    return null;
  }
}

function withPlayer(player: RoomPlayer) {
  return (players: RoomPlayer[]) =>
    players.some((seen) => seen.id === player.id)
      ? players.map((seen) => (seen.id === player.id ? player : seen))
      : [...players, player];
}

/** The snapshot, the kept seat and the frame's events of one viewer's room client. */
export class RoomState {
  snapshot: RoomSnapshot;
  seat: StoredSeat | null;
  push: (event: RoomsSdkEvent) => void = () => undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: SeatStorage,
    private readonly seatKey: string,
    isActive: boolean,
  ) {
    this.snapshot = {
      isActive,
      room: null,
      playerId: null,
      chat: [],
      chatStatus: 'allowed',
      notice: null,
    };
    this.seat = readSeat(storage, seatKey);
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.snapshot;

  update(change: Partial<RoomSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) {
      listener();
    }
  }

  private keepSeat(seat: StoredSeat | null) {
    this.seat = seat;
    try {
      if (seat) {
        this.storage.setItem(this.seatKey, JSON.stringify(seat));
      } else {
        this.storage.removeItem(this.seatKey);
      }
    } catch {
      // storage refused (private mode): a reconnect still works while the page lives
    }
  }

  pushRoom() {
    this.push({
      event: 'room',
      payload: { room: this.snapshot.room, playerId: this.snapshot.playerId },
    });
  }

  /** In a room (created, joined, watched, or taken back): kept, shown and told to the game. */
  enter(answer: RoomEntered) {
    const { room, seat } = accepted(answer);
    const isSpectator =
      room.players.find((player) => player.id === seat.playerId)?.isSpectator === true;
    this.keepSeat({ code: room.code, seatToken: seat.seatToken, isSpectator });
    this.update({ room, playerId: seat.playerId, chat: [], notice: null });
    this.pushRoom();
    return { room, playerId: seat.playerId };
  }

  /** Out of the room (left, closed, seat lost): the frame hears `closed` when it was not asked. */
  leave(notice: RoomNotice | null, reason?: string) {
    this.keepSeat(null);
    this.update({ room: null, playerId: null, chat: [], notice });
    if (reason) {
      this.push({ event: 'closed', payload: { reason } });
    }
    this.pushRoom();
  }

  updatePlayers(change: (players: RoomPlayer[]) => RoomPlayer[]) {
    const { room } = this.snapshot;
    if (room) {
      this.update({ room: { ...room, players: change(room.players) } });
    }
  }

  /** Takes the same seat (or the same room to watch) back after Socket.IO reconnected. */
  async rejoin(connection: RoomsConnection) {
    const { seat } = this;
    if (!seat || !this.snapshot.room) {
      return;
    }
    try {
      this.enter(
        seat.isSpectator
          ? await connection.request('room:spectate', { code: seat.code })
          : await connection.request('room:join', { code: seat.code, seatToken: seat.seatToken }),
      );
    } catch (error) {
      // unreachable again: the next reconnect tries again
      if (isHttpError(error) && error.code === 'SERVICE_UNAVAILABLE') {
        return;
      }
      // the room went away (closed, or emptied after the grace period)
      this.leave(ROOM_CLOSED_NOTICE, 'gone');
    }
  }
}

/** Keeps the state in step with the service's events and passes them on to the game's frame. */
export function listenToRoom(
  connection: RoomsConnection,
  state: RoomState,
  onRefused: (error: ReturnType<typeof roomError>) => void,
) {
  connection.onConnect((isReconnect) => {
    if (isReconnect) {
      void state.rejoin(connection);
    }
  });
  connection.onRefused(onRefused);
  connection.on('room:message', (payload) => state.push({ event: 'message', payload }));
  for (const event of ['join', 'away', 'back'] as const) {
    connection.on(`room:${event}`, ({ player }: { player: RoomPlayer }) => {
      state.updatePlayers(withPlayer(player));
      state.push({ event, payload: { player } });
    });
  }
  connection.on('room:host', ({ player }) => {
    state.updatePlayers((players) =>
      players.map((seen) => ({ ...seen, isHost: seen.id === player.id })),
    );
    state.push({ event: 'host', payload: { player } });
  });
  connection.on('room:leave', ({ player, reason }) => {
    if (player.id === state.snapshot.playerId) {
      state.leave(reason === 'closed' ? ROOM_CLOSED_NOTICE : null, reason);
      return;
    }
    state.updatePlayers((players) => players.filter((seen) => seen.id !== player.id));
    state.push({ event: 'leave', payload: { player } });
  });
  connection.on('room:state', (payload) => {
    const { room } = state.snapshot;
    if (room) {
      // JSON from the service (validated there): kept as the room holds it
      state.update({
        room: { ...room, state: { ...room.state, [payload.key]: payload.value as Json } },
      });
    }
    state.push({ event: 'state', payload });
  });
  connection.on('room:closed', ({ reason }) => state.leave(ROOM_CLOSED_NOTICE, reason));
  connection.on('chat:message', (line) => {
    // the room's recent lines come again after a rejoin: each is shown once
    if (!state.snapshot.chat.some((seen) => seen.id === line.id)) {
      state.update({ chat: [...state.snapshot.chat, line].slice(-CHAT_HISTORY) });
    }
  });
  connection.on('chat:status', ({ status }) => state.update({ chatStatus: status }));
}
