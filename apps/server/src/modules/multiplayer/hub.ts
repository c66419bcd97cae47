import type { Namespace, Socket } from 'socket.io';

import { MULTIPLAYER_NAMESPACES, type PlayRefusal } from '@portfolio/types/multiplayer';

import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { RealtimeServer } from '../../realtime/admin-notifier.js';
import { readSessionToken } from '../auth/session-middleware.js';
import type { SessionService } from '../auth/session-service.js';
import { type GameServer, type PlayerSocketData, createGameServer } from './game-server.js';
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
  attach(io: RealtimeServer, deps: { sessions: SessionService; bus: InvalidationBus }): void;
  close(): void;
}

/** Only signed-in users play: the session cookie is resolved once, at the handshake. */
function authorisePlayers(namespace: Namespace, sessions: SessionService) {
  namespace.use((socket, next) => {
    const token = readSessionToken(socket.request.headers.cookie);
    (token ? sessions.resolve(token) : Promise.resolve(null)).then(
      (session) => {
        if (!session) {
          next(new PlayRefusedError({ code: 'UNAUTHORIZED', message: 'Sign in to play' }));
          return;
        }
        (socket.data as PlayerSocketData).user = session.user;
        next();
      },
      (error: unknown) => next(error instanceof Error ? error : new Error('Session lookup failed')),
    );
  });
}

export function createMultiplayerHub(): MultiplayerHub {
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
    attach(io, { sessions, bus }) {
      const wolfscape = io.of(MULTIPLAYER_NAMESPACES.WolfScape);
      const rocket = io.of(MULTIPLAYER_NAMESPACES.RocketGame);
      for (const namespace of [wolfscape, rocket]) {
        authorisePlayers(namespace, sessions);
        namespaces.push(namespace);
      }
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
        const token = readSessionToken(socket.request.headers.cookie);
        (token ? sessions.resolve(token) : Promise.resolve(null)).then(
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
