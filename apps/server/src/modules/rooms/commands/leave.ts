import type { RoomLeaveReason, RoomPlayer } from '@portfolio/types/rooms';

import {
  isEmptyRoom,
  nextHost,
  type RoomMember,
  type RoomsContext,
  toRoomPlayer,
} from '../context.js';
import type { RoomChange, RoomSnapshot, Seat } from '../store.js';

/*
 * Seats going: a player leaves, drops (the seat is held for the game's grace period), or the
 * grace period ends (the sweep, on any replica: each change is computed from the newest record,
 * so a seat is freed and announced once). The host's place goes to the longest-seated present
 * player; a room without players is deleted.
 */

interface Departure {
  left: Array<{ player: RoomPlayer; reason: RoomLeaveReason }>;
  away: Array<{ player: RoomPlayer; until: number }>;
  host: RoomPlayer | null;
  isDeleted: boolean;
  code: string;
}

/** Removes seats from a snapshot: the host's hand-over, or the room's end. */
function withoutSeats(
  current: RoomSnapshot,
  gone: Seat[],
  reason: RoomLeaveReason,
): RoomChange<Departure> {
  const goneIds = new Set(gone.map((seat) => seat.playerId));
  const seats = current.seats.filter((seat) => !goneIds.has(seat.playerId));
  const left = gone.map((seat) => ({ player: toRoomPlayer(current.room, seat), reason }));
  const departure: Departure = {
    left,
    away: [],
    host: null,
    isDeleted: false,
    code: current.room.code,
  };
  if (isEmptyRoom(seats)) {
    return { kind: 'delete', result: { ...departure, isDeleted: true } };
  }
  let { hostId } = current.room;
  if (hostId === null || goneIds.has(hostId)) {
    const host = nextHost(seats);
    hostId = host?.playerId ?? null;
    departure.host = host ? toRoomPlayer({ ...current.room, hostId }, host) : null;
  }
  return { kind: 'write', next: { room: { ...current.room, hostId }, seats }, result: departure };
}

/** Tells the room what changed. */
function announce(context: RoomsContext, departure: Departure): void {
  const emitter = context.emitter();
  for (const { player, until } of departure.away) {
    emitter.toRoom(departure.code, 'room:away', { player, until: new Date(until).toISOString() });
  }
  for (const entry of departure.left) {
    emitter.toRoom(departure.code, 'room:leave', entry);
  }
  if (departure.host) {
    emitter.toRoom(departure.code, 'room:host', { player: departure.host });
  }
  if (departure.isDeleted) {
    // spectators left behind
    emitter.closeRoom(departure.code, 'gone');
  }
}

/** The member leaves for good ('room:leave' reason 'left'). */
export async function leaveRoom(context: RoomsContext, member: RoomMember): Promise<void> {
  const departure = await context.store.update<Departure | undefined>(member.code, (current) => {
    const seat = current?.seats.find((candidate) => candidate.playerId === member.playerId);
    if (!current || !seat) {
      return { kind: 'keep', result: undefined };
    }
    return withoutSeats(current, [seat], 'left');
  });
  if (departure) {
    announce(context, departure);
  }
}

/**
 * The member's socket dropped: a player's seat is held until the grace period ends ('room:away');
 * a spectator simply goes. A drop of a socket that no longer holds the seat changes nothing.
 */
export async function dropFromRoom(context: RoomsContext, member: RoomMember): Promise<void> {
  const graceMs = context.settingsOf(member.gameId).graceSeconds * 1000;
  const departure = await context.store.update<Departure | undefined>(member.code, (current) => {
    const seat = current?.seats.find((candidate) => candidate.playerId === member.playerId);
    if (!current || !seat || seat.socketId !== member.socketId || seat.awayUntil !== null) {
      return { kind: 'keep', result: undefined };
    }
    if (seat.isSpectator || graceMs === 0) {
      return withoutSeats(current, [seat], seat.isSpectator ? 'left' : 'timeout');
    }
    const until = context.now() + graceMs;
    const away: Seat = { ...seat, awayUntil: until };
    return {
      kind: 'write',
      next: {
        room: current.room,
        seats: current.seats.map((other) => (other.playerId === seat.playerId ? away : other)),
      },
      result: {
        left: [],
        away: [{ player: toRoomPlayer(current.room, away), until }],
        host: null,
        isDeleted: false,
        code: current.room.code,
      },
    };
  });
  if (departure) {
    announce(context, departure);
  }
}

/**
 * One pass over every room: seats whose grace ended are freed ('room:leave' reason 'timeout');
 * seats held by a replica that stopped (killed: its sockets never said goodbye) become away.
 */
export async function sweepRooms(context: RoomsContext): Promise<void> {
  const now = context.now();
  const alive = new Map<string, boolean>([[context.replicaId, true]]);
  for (const snapshot of await context.store.getMany(await context.store.listCodes())) {
    for (const seat of snapshot.seats) {
      if (seat.awayUntil === null && !alive.has(seat.replicaId)) {
        alive.set(seat.replicaId, await context.store.isReplicaAlive(seat.replicaId));
      }
    }
    const isStale = (seat: Seat) =>
      (seat.awayUntil !== null && seat.awayUntil <= now) ||
      (seat.awayUntil === null && alive.get(seat.replicaId) === false);
    if (!snapshot.seats.some(isStale) && !isEmptyRoom(snapshot.seats)) {
      continue;
    }
    const departure = await context.store.update<Departure | undefined>(
      snapshot.room.code,
      (current) => {
        if (!current) {
          return { kind: 'keep', result: undefined };
        }
        const expired = current.seats.filter(
          (seat) => seat.awayUntil !== null && seat.awayUntil <= now,
        );
        const orphaned = current.seats.filter(
          (seat) => seat.awayUntil === null && alive.get(seat.replicaId) === false,
        );
        if (expired.length === 0 && orphaned.length === 0 && !isEmptyRoom(current.seats)) {
          return { kind: 'keep', result: undefined };
        }
        const change = withoutSeats(
          {
            room: current.room,
            // a dead replica's players are held like any dropped player; its spectators go
            seats: current.seats
              .filter((seat) => !(orphaned.includes(seat) && seat.isSpectator))
              .map((seat) =>
                orphaned.includes(seat)
                  ? {
                      ...seat,
                      awayUntil: now + context.settingsOf(current.room.gameId).graceSeconds * 1000,
                    }
                  : seat,
              ),
          },
          expired,
          'timeout',
        );
        if (change.kind !== 'keep') {
          const next = change.kind === 'write' ? change.next : undefined;
          change.result.away = (next?.seats ?? [])
            .filter((seat) => orphaned.some((gone) => gone.playerId === seat.playerId))
            .map((seat) => ({
              player: toRoomPlayer(next?.room ?? current.room, seat),
              until: seat.awayUntil ?? now,
            }));
        }
        return change;
      },
    );
    if (departure) {
      announce(context, departure);
    }
  }
}

/** The admin closes a room: everyone in it is told and taken out; its code says so for a day. */
export async function closeRoom(
  context: RoomsContext,
  code: string,
): Promise<RoomSnapshot | undefined> {
  const closed = await context.store.update<RoomSnapshot | undefined>(code, (current) =>
    current ? { kind: 'delete', result: current } : { kind: 'keep', result: undefined },
  );
  if (closed) {
    await context.store.markClosed(code);
    context.emitter().closeRoom(code, 'admin');
  }
  return closed;
}
