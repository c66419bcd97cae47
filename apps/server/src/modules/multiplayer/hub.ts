import type { IncomingMessage } from 'node:http';

import type { Namespace, Socket } from 'socket.io';

import { MULTIPLAYER_NAMESPACES, type PlayRefusal } from '@portfolio/types/multiplayer';
import { RoomCode } from '@portfolio/types/rooms';

import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { RealtimeServer } from '../../lib/admin-notifier.js';
import type { ResolvedSession, SessionService } from '../auth/index.js';
import { type GameServer, type PlayerSocketData, createGameServer } from './game-server.js';
import type { PlayTickets } from './play-tickets.js';
import { ROCKET_ROOM_CAPACITY, ROCKET_TICK_RATE, createRocketRoom } from './rocket-game.js';
import { WOLFSCAPE_ROOM_CAPACITY, WOLFSCAPE_TICK_RATE, createWolfScapeRoom } from './wolfscape.js';

/** How often players' sessions are looked up again (a session can idle out during a game). */
const SESSION_RECHECK_INTERVAL_MS = 60_000;

/** A refused handshake: the client's `connect_error` carries `data` with the code and message. */
class PlayRefusedError extends Error {
  constructor(readonly data: PlayRefusal) {
    super(data.message);
  }
}

/**
 * The in-process multiplayer game servers. Built with the other services (the game-status
 * monitor asks it for health) and attached to Socket.IO once the HTTP server exists.
 */
export interface MultiplayerHub {
  /** Health of the in-process server of a type; undefined while not attached (no opinion yet). */
  health(serverType: string): boolean | undefined;
  /** The running servers by server type (tests and the benchmark). */
  servers(): ReadonlyMap<string, GameServer>;
  attach(io: RealtimeServer, deps: HubDeps): void;
  close(): void;
}

export interface HubDeps {
  sessions: SessionService;
  /** The session a handshake's cookies name (resolveSessionCookie), or null. */
  sessionOf: (socket: { request: IncomingMessage }) => Promise<ResolvedSession | null>;
  bus: InvalidationBus;
  /** Play tickets, for games on the games origin (no session cookie there). */
  playTickets?: PlayTickets;
  /** Whether a handshake comes from a page on the games origin (its Origin header). */
  isFromGamesOrigin?: (request: IncomingMessage) => boolean;
}

/** The room service, as the hub asks it whether a private room's code is live for a game. */
export interface HubRooms {
  exists(gameId: string, code: string): Promise<boolean>;
}

/** What the hub keeps on a player's socket besides the game server's data. */
interface HubSocketData extends PlayerSocketData {
  /** The session the player joined with (from the cookie or the ticket), checked again later. */
  sessionIdHash?: string;
}

const SIGN_IN: PlayRefusal = { code: 'UNAUTHORIZED', message: 'Sign in to play' };
const NO_ROOM: PlayRefusal = { code: 'ROOM_NOT_FOUND', message: 'That room does not exist.' };
const BAD_TICKET: PlayRefusal = {
  code: 'INVALID_TICKET',
  message: 'This play ticket is not valid any more. Open the game again.',
};

/**
 * Only signed-in users play, identified once, at the handshake: by a play ticket for this game
 * when the client passes one (`auth: { ticket }`: a game on the games origin), else by the session
 * cookie. A page on the games origin must bring a ticket: where the games origin shares the site's
 * cookie jar (GAMES_ORIGIN_ALLOW_SAME_SITE), its handshake may carry the site's cookie, which a
 * game must never be able to act with.
 */
/** `auth.room`: a room code of the room service for this game, or undefined (a plain join). */
async function roomCodeOf(
  auth: unknown,
  gameId: string,
  rooms: HubRooms | undefined,
): Promise<string | PlayRefusal | undefined> {
  const room = typeof auth === 'object' && auth !== null && 'room' in auth ? auth.room : undefined;
  if (room === undefined || room === null || room === '') {
    return undefined;
  }
  const code = RoomCode.safeParse(room);
  if (!code.success || !rooms || !(await rooms.exists(gameId, code.data))) {
    return NO_ROOM;
  }
  return code.data;
}

function authorisePlayers(
  namespace: Namespace,
  gameId: string,
  deps: HubDeps,
  rooms: HubRooms | undefined,
) {
  const { sessions } = deps;
  namespace.use((socket, next) => {
    const auth: unknown = socket.handshake.auth;
    const ticket =
      typeof auth === 'object' && auth !== null && 'ticket' in auth ? auth.ticket : undefined;
    let resolving: Promise<ResolvedSession | PlayRefusal | null>;
    if (ticket !== undefined && ticket !== null && ticket !== '') {
      const claims = deps.playTickets?.verify(ticket, gameId);
      resolving = claims
        ? sessions
            .resolveIdHash(claims.sessionIdHash)
            .then((session) => (session?.user.id === claims.userId ? session : null))
        : Promise.resolve(BAD_TICKET);
    } else if (deps.isFromGamesOrigin?.(socket.request)) {
      resolving = Promise.resolve(null);
    } else {
      resolving = deps.sessionOf(socket);
    }
    Promise.all([resolving, roomCodeOf(auth, gameId, rooms)]).then(
      ([session, roomCode]) => {
        if (!session || !('user' in session)) {
          next(new PlayRefusedError(session ?? SIGN_IN));
          return;
        }
        if (typeof roomCode === 'object') {
          next(new PlayRefusedError(roomCode));
          return;
        }
        const data = socket.data as HubSocketData;
        data.user = session.user;
        data.sessionIdHash = session.idHash;
        if (roomCode !== undefined) {
          data.roomCode = roomCode;
        }
        next();
      },
      (error: unknown) => next(error instanceof Error ? error : new Error('Session lookup failed')),
    );
  });
}

/**
 * `rooms`: with it, a player may pass `auth.room` (a live room of the room service for that game)
 * and play in that room's own instance (private rooms and invite links for the demo games).
 */
export function createMultiplayerHub(options: { rooms?: HubRooms } = {}): MultiplayerHub {
  const servers = new Map<string, GameServer>();
  const namespaces: Namespace[] = [];
  let isAttached = false;
  let recheckTimer: NodeJS.Timeout | undefined;

  return {
    health(serverType) {
      if (!isAttached) {
        return undefined;
      }
      return servers.get(serverType)?.isHealthy();
    },
    servers: () => servers,
    attach(io, deps) {
      const { sessions, bus } = deps;
      const wolfscape = io.of(MULTIPLAYER_NAMESPACES.WolfScape);
      const rocket = io.of(MULTIPLAYER_NAMESPACES.RocketGame);
      authorisePlayers(wolfscape, 'WolfScape', deps, options.rooms);
      authorisePlayers(rocket, 'RocketGame', deps, options.rooms);
      namespaces.push(wolfscape, rocket);
      servers.set(
        'wolfscape',
        createGameServer(wolfscape, {
          serverType: 'wolfscape',
          tickRate: WOLFSCAPE_TICK_RATE,
          roomCapacity: WOLFSCAPE_ROOM_CAPACITY,
          inputEvent: 'move',
          maxInputsPerSecond: 10,
          createRoom: (roomId) => createWolfScapeRoom(roomId),
        }),
      );
      servers.set(
        'rocketGame',
        createGameServer(rocket, {
          serverType: 'rocketGame',
          tickRate: ROCKET_TICK_RATE,
          roomCapacity: ROCKET_ROOM_CAPACITY,
          inputEvent: 'input',
          maxInputsPerSecond: 30,
          createRoom: (roomId, roomNumber) => createRocketRoom(roomId, { roomNumber }),
        }),
      );
      /** A socket whose session ended (logout, deletion, expiry) leaves the game. */
      const recheck = (socket: Socket) => {
        const { sessionIdHash } = socket.data as HubSocketData;
        (sessionIdHash ? sessions.resolveIdHash(sessionIdHash) : Promise.resolve(null)).then(
          (session) => {
            if (!session) {
              socket.disconnect(true);
            }
          },
          () => socket.disconnect(true),
        );
      };
      // a logout or deletion elsewhere ends that user's games at once
      bus.subscribe((userId) => {
        for (const namespace of namespaces) {
          for (const socket of namespace.sockets.values()) {
            if ((socket.data as PlayerSocketData).user.id === userId) {
              recheck(socket);
            }
          }
        }
      });
      // sessions also end by idling out: every player is looked up again once a minute
      recheckTimer = setInterval(() => {
        namespaces.forEach((namespace) => namespace.sockets.forEach(recheck));
      }, SESSION_RECHECK_INTERVAL_MS);
      recheckTimer.unref();
      isAttached = true;
    },
    close() {
      isAttached = false;
      clearInterval(recheckTimer);
      servers.forEach((server) => server.close());
    },
  };
}
