import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import type { Namespace, Socket } from 'socket.io';
import { z } from 'zod';

import type { CurrentUser } from '@portfolio/types';
import {
  ChatReportRequest,
  ChatSendRequest,
  CreateRoomRequest,
  JoinRoomRequest,
  ROOMS_NAMESPACE,
  RoomCompareAndSetRequest,
  RoomSendRequest,
  RoomSetStateRequest,
  RoomsHandshake,
  type RoomAck,
  type RoomsClientToServerEvents,
  type RoomsServerToClientEvents,
  SpectateRoomRequest,
} from '@portfolio/types/rooms';

import { HttpError, describeZodError } from '../lib/errors.js';
import type { RealtimeServer } from '../lib/admin-notifier.js';
import type { InvalidationBus } from '../lib/invalidation-bus.js';
import { moduleLogger } from '../lib/logger.js';
import type { ResolvedSession } from '../modules/auth/index.js';
import type { ResolveGame } from '../modules/game-host/index.js';
import type {
  Entered,
  RoomGame,
  RoomIdentity,
  RoomMember,
  RoomService,
  RoomsEmitter,
} from '../modules/rooms/index.js';

const log = moduleLogger('rooms');

/*
 * The `/rooms` namespace (issue 38): the site's game viewer holds one socket here per game it
 * shows, with the player's session cookie (or as a guest where the game allows guests), and
 * relays for the game's frame. Socket.IO rooms carry the fan-out (so the Redis adapter reaches
 * every replica): `room:<code>` everyone in a room, `seat:<code>:<playerId>` one player,
 * `chat:<code>` those who may read chat, `user:<id>` a user's sockets (chat status changes).
 */

interface RoomsSocketData {
  user: CurrentUser | undefined;
  identity: RoomIdentity;
  game: RoomGame;
  member: RoomMember | undefined;
  /** The seat token of `member` (kept so that joining the same room again keeps the seat). */
  seatToken?: string | undefined;
}

type RoomsNamespace = Namespace<
  RoomsClientToServerEvents,
  RoomsServerToClientEvents,
  Record<string, never>,
  RoomsSocketData
>;
type RoomsSocket = Socket<
  RoomsClientToServerEvents,
  RoomsServerToClientEvents,
  Record<string, never>,
  RoomsSocketData
>;

/** A refused handshake: the client's `connect_error` carries `data` ({ code, message }). */
class RoomsRefusedError extends Error {
  readonly data: { code: string; message: string };
  constructor(code: string, message: string) {
    super(message);
    this.data = { code, message };
  }
}

export interface RoomsNamespaceDeps {
  rooms: RoomService;
  resolveGame: ResolveGame;
  sessionOf: (socket: { request: IncomingMessage }) => Promise<ResolvedSession | null>;
  bus: InvalidationBus;
}

/** The requests that carry nothing ('room:list', 'room:quickJoin', 'room:leave'). */
const NoRequest = z.object({});

const roomKey = (code: string) => `room:${code}`;
const chatKey = (code: string) => `chat:${code}`;
const seatKey = (code: string, playerId: string) => `seat:${code}:${playerId}`;
const userKey = (userId: string) => `user:${userId}`;

/** The emitter the room service uses: Socket.IO rooms, so every replica's sockets are reached. */
function createEmitter(namespace: RoomsNamespace): RoomsEmitter {
  return {
    toRoom(code, event, payload, exceptSocketId) {
      const target = namespace.to(roomKey(code));
      const args = [payload] as Parameters<RoomsServerToClientEvents[typeof event]>;
      (exceptSocketId ? target.except(exceptSocketId) : target).emit(event, ...args);
    },
    toPlayer(code, playerId, event, payload) {
      const args = [payload] as Parameters<RoomsServerToClientEvents[typeof event]>;
      namespace.to(seatKey(code, playerId)).emit(event, ...args);
    },
    toChat(code, payload) {
      namespace.to(chatKey(code)).emit('chat:message', payload);
    },
    closeRoom(code, reason) {
      namespace.to(roomKey(code)).emit('room:closed', { reason });
      namespace.in(roomKey(code)).socketsLeave([roomKey(code), chatKey(code)]);
    },
    chatStatusChanged(userId, status) {
      namespace.to(userKey(userId)).emit('chat:status', { status });
      // a ban stops reading chat at once; lifting it lets the sockets read their room's chat again
      namespace
        .in(userKey(userId))
        .fetchSockets()
        .then((sockets) => {
          for (const socket of sockets) {
            for (const name of socket.rooms) {
              if (status === 'banned' && name.startsWith('chat:')) {
                socket.leave(name);
              } else if (status !== 'banned' && name.startsWith('room:')) {
                socket.join(chatKey(name.slice('room:'.length)));
              }
            }
          }
        })
        .catch((error: unknown) => log.warn({ err: error }, 'chat status: sockets not reached'));
    },
  };
}

/** "Guest 4821": a guest's name in rooms. */
const guestName = () => `Guest ${randomInt(1000, 10000)}`;

/** Session cookie, game (published, open to this player) and the game's guest setting. */
function authorise(namespace: RoomsNamespace, deps: RoomsNamespaceDeps) {
  namespace.use((socket, next) => {
    const handshake = RoomsHandshake.safeParse(socket.handshake.auth);
    if (!handshake.success) {
      next(new RoomsRefusedError('BAD_REQUEST', `auth.${describeZodError(handshake.error)}`));
      return;
    }
    deps.sessionOf(socket).then(
      (session) => {
        const user = session?.user;
        let game: RoomGame;
        try {
          const resolved = deps.resolveGame(handshake.data.gameId, { player: user?.role ?? null });
          game = { id: resolved.id, settings: deps.rooms.settingsOf(resolved.id) };
        } catch (error) {
          const refusal = error instanceof HttpError ? error : new HttpError('FORBIDDEN');
          // a guest refused a game (a live game or a subscriber's) is first asked to sign in
          const code = !user && refusal.code === 'FORBIDDEN' ? 'ROOMS_SIGN_IN' : refusal.code;
          next(
            new RoomsRefusedError(
              code,
              code === refusal.code ? refusal.message : new HttpError(code).message,
            ),
          );
          return;
        }
        if (!user && !game.settings.guests) {
          next(new RoomsRefusedError('ROOMS_SIGN_IN', new HttpError('ROOMS_SIGN_IN').message));
          return;
        }
        socket.data.user = user;
        socket.data.game = game;
        socket.data.identity = user
          ? { userId: user.id, name: user.username }
          : { userId: null, name: guestName() };
        socket.data.member = undefined;
        next();
      },
      (error: unknown) => next(error instanceof Error ? error : new Error('Session lookup failed')),
    );
  });
}

/** The error a client sees in its ack: a catalogue code and message, never a stack. */
function ackError(error: unknown): { ok: false; error: { code: string; message: string } } {
  if (error instanceof HttpError) {
    return { ok: false, error: { code: error.code, message: error.message } };
  }
  log.error({ err: error }, 'room request failed');
  return { ok: false, error: { code: 'INTERNAL', message: new HttpError('INTERNAL').message } };
}

/**
 * One request: validated with its schema (a 'BAD_REQUEST' ack with `field: message`), run,
 * answered through the ack (a request without an ack function is run and not answered).
 */
function handle<S extends z.ZodType, T extends object>(
  socket: RoomsSocket,
  event: keyof RoomsClientToServerEvents,
  schema: S,
  run: (request: z.infer<S>) => Promise<T> | T,
) {
  socket.on(event, (request: unknown, ack: unknown) => {
    const answer = (value: RoomAck<T>) => {
      if (typeof ack === 'function') {
        (ack as (value: RoomAck<T>) => void)(value);
      }
    };
    const parsed = schema.safeParse(request ?? {});
    if (!parsed.success) {
      answer({
        ok: false,
        error: { code: 'BAD_REQUEST', message: describeZodError(parsed.error) },
      });
      return;
    }
    Promise.resolve()
      .then(() => run(parsed.data))
      .then(
        (result) => answer({ ok: true, ...result }),
        (error: unknown) => answer(ackError(error)),
      );
  });
}

/** The member this socket is in a room as, or NOT_IN_ROOM (never joined, left, or closed). */
function memberOf(socket: RoomsSocket): RoomMember {
  const { member } = socket.data;
  if (!member || !socket.rooms.has(roomKey(member.code))) {
    throw new HttpError('NOT_IN_ROOM');
  }
  return member;
}

/** Takes the socket out of its room's Socket.IO rooms. */
async function leaveSocketRooms(socket: RoomsSocket, member: RoomMember) {
  await Promise.all([
    socket.leave(roomKey(member.code)),
    socket.leave(chatKey(member.code)),
    socket.leave(seatKey(member.code, member.playerId)),
  ]);
  socket.data.member = undefined;
  socket.data.seatToken = undefined;
}

function handleRequests(socket: RoomsSocket, rooms: RoomService) {
  const { game, identity } = socket.data;
  const connection = { socketId: socket.id };

  /**
   * One room at a time: entering another leaves the current one first (asking for the room one
   * is in again keeps the seat: the service finds it by the seat token kept here).
   */
  const enter = async (entering: () => Promise<Entered>, code?: string) => {
    const current = socket.data.member;
    if (current && current.code !== code) {
      await rooms.leave(current);
      await leaveSocketRooms(socket, current);
    }
    const { room, seat, member } = await entering();
    socket.data.member = member;
    socket.data.seatToken = seat.seatToken;
    await socket.join([roomKey(member.code), seatKey(member.code, member.playerId)]);
    const status = await rooms.chatStatusOf(identity.userId);
    if (status !== 'banned') {
      await socket.join(chatKey(member.code));
      // the room's recent chat, after the answer
      const history = await rooms.chatHistory(member.code);
      setImmediate(() => history.forEach((line) => socket.emit('chat:message', line)));
    }
    return { room, seat };
  };

  handle(socket, 'room:list', NoRequest, async () => ({
    rooms: await rooms.listPublic(game.id),
  }));
  handle(socket, 'room:create', CreateRoomRequest, (request) =>
    enter(() => rooms.create(game, identity, connection, request)),
  );
  handle(socket, 'room:join', JoinRoomRequest, (request) =>
    enter(
      () =>
        rooms.join(game, identity, connection, {
          code: request.code,
          seatToken:
            request.seatToken ??
            (socket.data.member?.code === request.code ? socket.data.seatToken : undefined),
        }),
      request.code,
    ),
  );
  handle(socket, 'room:quickJoin', NoRequest, () =>
    enter(() => rooms.quickJoin(game, identity, connection)),
  );
  handle(socket, 'room:spectate', SpectateRoomRequest, ({ code }) =>
    enter(() => rooms.spectate(game, identity, connection, code)),
  );
  handle(socket, 'room:leave', NoRequest, async () => {
    const member = memberOf(socket);
    await rooms.leave(member);
    await leaveSocketRooms(socket, member);
    return {};
  });
  handle(socket, 'room:send', RoomSendRequest, (request) => {
    rooms.send(memberOf(socket), request);
    return {};
  });
  handle(socket, 'room:setState', RoomSetStateRequest, async (request) => {
    await rooms.setState(memberOf(socket), request);
    return {};
  });
  handle(socket, 'room:cas', RoomCompareAndSetRequest, async (request) => ({
    swapped: await rooms.compareAndSet(memberOf(socket), request),
  }));
  handle(socket, 'chat:send', ChatSendRequest, async ({ text }) => {
    await rooms.chat(memberOf(socket), text);
    return {};
  });
  handle(socket, 'chat:report', ChatReportRequest, async ({ messageId }) => {
    await rooms.reportChat(memberOf(socket), messageId);
    return {};
  });

  socket.on('disconnect', () => {
    const { member } = socket.data;
    if (member) {
      rooms.dropped(member).catch((error: unknown) => log.warn({ err: error }, 'drop failed'));
    }
  });
}

/** Sets up ROOMS_NAMESPACE on the Socket.IO server and connects the room service to it. */
export function attachRoomsNamespace(
  io: RealtimeServer,
  deps: RoomsNamespaceDeps,
): () => Promise<void> {
  // the namespace has its own event maps: the server's are the site's other sockets'
  const namespace = io.of(ROOMS_NAMESPACE) as unknown as RoomsNamespace;
  authorise(namespace, deps);
  deps.rooms.attachEmitter(createEmitter(namespace));
  namespace.on('connection', (socket) => {
    if (socket.data.user) {
      void socket.join(userKey(socket.data.user.id));
    }
    handleRequests(socket, deps.rooms);
  });
  // a logout or deletion elsewhere: that user's room sockets go (their seats are held as drops)
  deps.bus.subscribe((userId) => {
    for (const socket of namespace.sockets.values()) {
      if (socket.data.user?.id === userId) {
        deps.sessionOf(socket).then(
          (session) => {
            if (!session) {
              socket.disconnect(true);
            }
          },
          () => socket.disconnect(true),
        );
      }
    }
  });
  deps.rooms.start();
  return () => deps.rooms.stop();
}
