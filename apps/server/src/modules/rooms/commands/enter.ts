import { randomBytes, randomUUID } from 'node:crypto';

import { ROOM_SPECTATORS_MAX, type RoomSeat, type RoomView } from '@portfolio/types/rooms';

import {
  type RoomConnection,
  type RoomGame,
  type RoomIdentity,
  type RoomMember,
  type RoomsContext,
  presentRoom,
  roomError,
  seatedPlayers,
  toRoomPlayer,
} from '../context.js';
import { hashSeatToken, newRoomCode, type RoomSnapshot, type Seat } from '../store.js';

/*
 * Entering a room: create, join by code (or back into one's seat with its token), quick join,
 * spectate. Each answers the room as it is now, the seat (its token is shown once, here) and the
 * member the namespace keeps on the socket.
 */

export interface Entered {
  room: RoomView;
  seat: RoomSeat;
  member: RoomMember;
}

/** Codes drawn before giving up (31^6 ≈ 887 million codes: a clash is rare). */
const CODE_ATTEMPTS = 10;

function newSeat(
  identity: RoomIdentity,
  connection: RoomConnection,
  context: RoomsContext,
  order: number,
  isSpectator: boolean,
): { seat: Seat; token: string } {
  const token = randomBytes(24).toString('base64url');
  return {
    token,
    seat: {
      playerId: randomUUID(),
      name: identity.name,
      userId: identity.userId,
      tokenHash: hashSeatToken(token),
      isSpectator,
      awayUntil: null,
      order,
      replicaId: context.replicaId,
      socketId: connection.socketId,
    },
  };
}

async function entered(
  context: RoomsContext,
  snapshot: RoomSnapshot,
  seat: Seat,
  token: string,
): Promise<Entered> {
  const { room } = snapshot;
  return {
    room: await presentRoom(context, snapshot),
    seat: { playerId: seat.playerId, seatToken: token },
    member: {
      code: room.code,
      gameId: room.gameId,
      playerId: seat.playerId,
      isSpectator: seat.isSpectator,
      name: seat.name,
      userId: seat.userId,
      socketId: seat.socketId,
    },
  };
}

/** A new room with the asker in its first seat, as its host. */
export async function createRoom(
  context: RoomsContext,
  game: RoomGame,
  identity: RoomIdentity,
  connection: RoomConnection,
  request: { private: boolean; maxPlayers?: number | undefined },
): Promise<Entered> {
  const maxPlayers = Math.min(
    request.maxPlayers ?? game.settings.maxPlayers,
    game.settings.maxPlayers,
  );
  const { seat, token } = newSeat(identity, connection, context, 0, false);
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const snapshot: RoomSnapshot = {
      room: {
        code: newRoomCode(),
        gameId: game.id,
        isPrivate: request.private,
        maxPlayers,
        createdAt: context.now(),
        hostId: seat.playerId,
        nextOrder: 1,
      },
      seats: [seat],
    };
    if (await context.store.create(snapshot)) {
      return entered(context, snapshot, seat, token);
    }
  }
  throw new Error('no free room code after several attempts');
}

/** Refuses a code that is not a live room of this game: closed by the admin, or never was. */
async function missingRoom(context: RoomsContext, code: string): Promise<never> {
  throw (await context.store.isClosed(code))
    ? roomError('ROOM_CLOSED')
    : roomError('ROOM_NOT_FOUND');
}

type SeatOutcome =
  | {
      kind: 'entered';
      snapshot: RoomSnapshot;
      seat: Seat;
      token: string;
      event: 'join' | 'back' | null;
    }
  | { kind: 'missing' }
  | { kind: 'full' }
  | { kind: 'spectators-full' };

/** Takes a seat (or a spectator's place) in a room, or the asker's own seat back. */
function takeSeat(
  context: RoomsContext,
  code: string,
  game: RoomGame,
  identity: RoomIdentity,
  connection: RoomConnection,
  options: { seatToken?: string | undefined; isSpectator: boolean },
) {
  return context.store.update<SeatOutcome>(code, (current) => {
    if (!current || current.room.gameId !== game.id) {
      return { kind: 'keep', result: { kind: 'missing' } };
    }
    const tokenHash = options.seatToken ? hashSeatToken(options.seatToken) : undefined;
    const own = current.seats.find(
      (seat) =>
        seat.isSpectator === options.isSpectator &&
        (seat.tokenHash === tokenHash ||
          (identity.userId !== null && seat.userId === identity.userId)),
    );
    if (own) {
      // the same seat, now on this socket: a token proves it; a signed-in user's own seat too
      // (another tab), and then a new token is handed out
      const token =
        tokenHash === own.tokenHash && options.seatToken
          ? options.seatToken
          : randomBytes(24).toString('base64url');
      const seat: Seat = {
        ...own,
        tokenHash: hashSeatToken(token),
        awayUntil: null,
        replicaId: context.replicaId,
        socketId: connection.socketId,
      };
      const next: RoomSnapshot = {
        room: current.room,
        seats: current.seats.map((other) => (other.playerId === own.playerId ? seat : other)),
      };
      const event = own.awayUntil !== null ? 'back' : null;
      return {
        kind: 'write',
        next,
        result: { kind: 'entered', snapshot: next, seat, token, event },
      };
    }
    if (options.isSpectator) {
      if (current.seats.filter((seat) => seat.isSpectator).length >= ROOM_SPECTATORS_MAX) {
        return { kind: 'keep', result: { kind: 'spectators-full' } };
      }
    } else if (seatedPlayers(current.seats).length >= current.room.maxPlayers) {
      return { kind: 'keep', result: { kind: 'full' } };
    }
    const { seat, token } = newSeat(
      identity,
      connection,
      context,
      current.room.nextOrder,
      options.isSpectator,
    );
    const next: RoomSnapshot = {
      room: {
        ...current.room,
        nextOrder: current.room.nextOrder + 1,
        // a room left to its spectators gets a host again with its first player
        hostId: current.room.hostId ?? (options.isSpectator ? null : seat.playerId),
      },
      seats: [...current.seats, seat],
    };
    return {
      kind: 'write',
      next,
      result: { kind: 'entered', snapshot: next, seat, token, event: 'join' },
    };
  });
}

/** Joins a room by its code, or takes one's seat back (`seatToken`) within the grace period. */
export async function joinRoom(
  context: RoomsContext,
  game: RoomGame,
  identity: RoomIdentity,
  connection: RoomConnection,
  request: { code: string; seatToken?: string | undefined; isSpectator?: boolean },
): Promise<Entered> {
  const outcome = await takeSeat(context, request.code, game, identity, connection, {
    seatToken: request.seatToken,
    isSpectator: request.isSpectator ?? false,
  });
  if (outcome.kind === 'missing') {
    return missingRoom(context, request.code);
  }
  if (outcome.kind === 'full') {
    throw roomError('ROOM_FULL');
  }
  if (outcome.kind === 'spectators-full') {
    throw roomError('ROOM_FULL', 'That room has as many spectators as it takes.');
  }
  const { snapshot, seat, token, event } = outcome;
  const player = toRoomPlayer(snapshot.room, seat);
  if (event === 'join') {
    context.emitter().toRoom(snapshot.room.code, 'room:join', { player });
  } else if (event === 'back') {
    context.emitter().toRoom(snapshot.room.code, 'room:back', { player });
  }
  return entered(context, snapshot, seat, token);
}

/**
 * A public room of this game with a free seat, the fullest first (players meet sooner), else a
 * new public room. Private rooms are never in the index it reads.
 */
export async function quickJoin(
  context: RoomsContext,
  game: RoomGame,
  identity: RoomIdentity,
  connection: RoomConnection,
): Promise<Entered> {
  const rooms = await context.store.getMany(await context.store.listPublic(game.id));
  const candidates = rooms
    .filter(({ room, seats }) => !room.isPrivate && seatedPlayers(seats).length < room.maxPlayers)
    .sort(
      (a, b) =>
        seatedPlayers(b.seats).length - seatedPlayers(a.seats).length ||
        a.room.createdAt - b.room.createdAt,
    );
  for (const { room } of candidates) {
    try {
      return await joinRoom(context, game, identity, connection, { code: room.code });
    } catch (error) {
      // taken or gone meanwhile: the next one
      if (!(error instanceof Error && 'code' in error)) {
        throw error;
      }
    }
  }
  return createRoom(context, game, identity, connection, { private: false });
}
