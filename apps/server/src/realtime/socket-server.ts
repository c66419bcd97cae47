import type { IncomingMessage, Server as HttpServer } from 'node:http';

import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';

import type { Config } from '../config.js';
import { createSocketLimiter } from '../lib/connection-limits.js';
import { createRequestOrigin } from '../lib/proxy-trust.js';
import { connectRedis, waitForRedis } from '../lib/redis.js';
import { isSiteOrigin } from '../lib/security.js';
import type { InvalidationBus } from '../lib/invalidation-bus.js';
import { policies } from '../access/policies.js';
import { gamesOriginFor } from '../modules/game-host/origin.js';
import type { MultiplayerHub } from '../modules/multiplayer/hub.js';
import type { PlayTickets } from '../modules/multiplayer/play-tickets.js';
import { resolveSessionCookie, siteCookieNames } from '../modules/auth/session-middleware.js';
import type { ResolvedSession, SessionService } from '../modules/auth/session-service.js';
import {
  ADMINS_ROOM,
  type AdminNotifier,
  type RealtimeServer,
  type RealtimeSocket,
} from '../lib/admin-notifier.js';
import { moduleLogger } from '../lib/logger.js';
import type { ResolveGame } from '../modules/game-host/index.js';
import type { RoomService } from '../modules/rooms/index.js';
import { attachRoomsNamespace } from './rooms-namespace.js';

const log = moduleLogger('realtime');

export interface Realtime {
  io: RealtimeServer;
  /** Disconnects every socket, detaches from the HTTP server and closes the Redis clients. */
  close(): Promise<void>;
}

/** How often admin sockets' sessions are looked up again (they can time out while connected). */
const ADMIN_RECHECK_INTERVAL_MS = 60_000;

/** Calls the adapter makes without awaiting: a failure while Redis is down must not crash us. */
const FIRE_AND_FORGET = new Set<PropertyKey>([
  'publish',
  'psubscribe',
  'subscribe',
  'punsubscribe',
  'unsubscribe',
]);

/**
 * @socket.io/redis-adapter calls `publish` (and subscribe calls) without handling the promise;
 * with Redis down each would be an unhandled rejection, which ends a Node process. This view of
 * the client logs those instead; local delivery carries on, and ioredis reconnects (and
 * resubscribes) by itself.
 */
function tolerateOutages(client: Redis, name: string, isClosing: () => boolean): Redis {
  let lastWarning = 0;
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (!FIRE_AND_FORGET.has(property) || typeof value !== 'function') {
        return value;
      }
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        if (result instanceof Promise) {
          result.catch((error: unknown) => {
            if (!isClosing() && Date.now() - lastWarning > 10_000) {
              lastWarning = Date.now();
              log.warn(
                { connection: name, reason: error instanceof Error ? error.message : error },
                `${String(property)} failed; delivering locally only`,
              );
            }
          });
        }
        return result;
      };
    },
  });
}

/** Browsers always send Origin on WebSocket and cross-site requests; it must be the site's. */
function isAllowedOrigin(
  request: IncomingMessage,
  publicOrigin: string | undefined,
  protocolOf: (request: IncomingMessage) => string,
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) {
    // not a browser (a server-side client or a test): nothing for CSRF-style abuse to ride on
    return true;
  }
  return isSiteOrigin(
    origin,
    protocolOf(request),
    request.headers.host,
    publicOrigin ? [publicOrigin] : [],
  );
}

/** The namespaces a page on the games origin may connect to: the live games, and nothing else. */
const GAMES_ORIGIN_NAMESPACE = /^\/play\//;

/**
 * With REDIS_URL, the Redis adapter makes an emit reach every process's sockets. The adapter
 * subscribes once, at creation: a subscriber connection holds that until Redis is reachable and
 * re-subscribes after every reconnect. Returns the two connections, to close.
 */
async function useRedisAdapter(
  io: RealtimeServer,
  redisUrl: string,
  redisPrefix: string,
  isClosing: () => boolean,
): Promise<Redis[]> {
  const pub = connectRedis(redisUrl, 'socket.io-pub');
  const sub = connectRedis(redisUrl, 'socket.io-sub', { subscriber: true });
  await Promise.all([waitForRedis(pub), waitForRedis(sub)]).catch((error: unknown) =>
    log.warn(
      { reason: error instanceof Error ? error.message : error },
      'Redis not ready; delivering to this process only until it is',
    ),
  );
  io.adapter(
    createAdapter(tolerateOutages(pub, 'pub', isClosing), tolerateOutages(sub, 'sub', isClosing), {
      key: `${redisPrefix}:socket.io`,
    }),
  );
  return [pub, sub];
}

type SessionOf = (socket: { request: IncomingMessage }) => Promise<ResolvedSession | null>;

/** Looks the socket's session up again: one that lost admin rights leaves the room, one that ended is dropped. */
function recheck(socket: RealtimeSocket, sessionOf: SessionOf) {
  sessionOf(socket).then(
    (session) => {
      socket.data.user = session?.user;
      if (!session) {
        // the session ended (logout, deletion, a password change elsewhere): so does its socket
        socket.disconnect(true);
        return;
      }
      if (!policies.isAdmin(session.user)) {
        void socket.leave(ADMINS_ROOM);
      }
    },
    (error: unknown) => {
      // cannot tell: do not keep sending admin events on an unverified session
      log.warn({ err: error }, 'session re-check failed');
      socket.disconnect(true);
    },
  );
}

/** Re-checks sockets whose user changed elsewhere, and admins' sockets every minute. */
function startRechecks(
  io: RealtimeServer,
  sessionOf: SessionOf,
  bus: InvalidationBus,
): NodeJS.Timeout {
  // a logout, role change or deletion elsewhere: re-check this process's sockets of that user
  bus.subscribe((userId) => {
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.user?.id === userId) {
        recheck(socket, sessionOf);
      }
    }
  });

  // sessions also end by timing out: admin sockets are re-checked every minute
  const recheckTimer = setInterval(() => {
    for (const socket of io.of('/').sockets.values()) {
      if (socket.rooms.has(ADMINS_ROOM)) {
        recheck(socket, sessionOf);
      }
    }
  }, ADMIN_RECHECK_INTERVAL_MS);
  recheckTimer.unref();
  return recheckTimer;
}

/**
 * Socket.IO on the app's HTTP server. Sockets are authorised from the session cookie at the
 * handshake; admins join the `admins` room, everyone else joins nothing and receives nothing.
 * With REDIS_URL, the Redis adapter makes an emit to `admins` reach every process's admins.
 */
export async function createRealtime(
  httpServer: HttpServer,
  deps: {
    config: Config;
    sessions: SessionService;
    bus: InvalidationBus;
    notifier: AdminNotifier;
    multiplayer?: MultiplayerHub;
    playTickets?: PlayTickets;
    /** Rooms for any game and the game lookup its handshake uses (the /rooms namespace). */
    rooms?: { service: RoomService; resolveGame: ResolveGame };
  },
): Promise<Realtime> {
  const { config, sessions, notifier } = deps;
  /** A handshake from a game's page on the games origin: only /play namespaces. */
  const isFromGamesOrigin = (request: IncomingMessage): boolean => {
    const origin = request.headers.origin;
    return origin !== undefined && origin === gamesOriginFor(request, config);
  };
  const requestOrigin = createRequestOrigin(config.trustProxy);
  // one client address may hold this many sockets; more are refused at the handshake
  const socketLimiter = createSocketLimiter(config.connections.socketsPerAddress);
  const io: RealtimeServer = new Server(httpServer, {
    // per-message deflate costs ~10× memory per socket; payloads are small
    perMessageDeflate: false,
    // the game clients load /socket.io/socket.io.js from here (the CSP allows only 'self')
    serveClient: true,
    allowRequest: (request, callback) => {
      if (
        !isAllowedOrigin(request, config.publicOrigin, requestOrigin.protocol) &&
        !isFromGamesOrigin(request)
      ) {
        callback('Origin not allowed', false);
        return;
      }
      if (!socketLimiter.allows(requestOrigin.clientAddress(request))) {
        callback('Too many connections from this address', false);
        return;
      }
      callback(null, true);
    },
  });
  // the long-polling transport is read cross-origin by a game on the games origin: CORS for that
  // origin alone, without credentials (it never needs the cookie; its namespaces are /play only)
  const allowGamesOrigin = (headers: Record<string, string>, request: IncomingMessage) => {
    if (isFromGamesOrigin(request) && request.headers.origin) {
      headers['Access-Control-Allow-Origin'] = request.headers.origin;
      headers.Vary = 'Origin';
    }
  };
  io.engine.on('initial_headers', allowGamesOrigin);
  io.engine.on('headers', allowGamesOrigin);
  // counted when engine.io opens the connection (synchronously after allowRequest), so a burst of
  // handshakes cannot all pass the check before any is counted
  io.engine.on(
    'connection',
    (connection: {
      request: IncomingMessage;
      once: (event: 'close', listener: () => void) => void;
    }) => {
      connection.once(
        'close',
        socketLimiter.opened(requestOrigin.clientAddress(connection.request)),
      );
    },
  );

  let closing = false;
  const redisClients = config.redisUrl
    ? await useRedisAdapter(io, config.redisUrl, config.redisPrefix, () => closing)
    : [];

  // the games origin reaches the live games' namespaces only: presence, admin events and any
  // namespace added later stay the site's
  const refuseGamesOrigin = (
    socket: { request: IncomingMessage },
    next: (error?: Error) => void,
  ) => {
    next(isFromGamesOrigin(socket.request) ? new Error('Origin not allowed') : undefined);
  };
  io.use(refuseGamesOrigin);
  io.on('new_namespace', (namespace) => {
    if (!GAMES_ORIGIN_NAMESPACE.test(namespace.name)) {
      namespace.use(refuseGamesOrigin);
    }
  });

  const cookieNames = siteCookieNames(config.publicOrigin);
  // ADMIN_REQUIRE_2FA: until an admin has set up 2FA, the session is a plain user's (no admins
  // room), as the session service resolves it
  const sessionOf = (socket: { request: IncomingMessage }) =>
    resolveSessionCookie(sessions, cookieNames, socket.request.headers.cookie).then(
      ({ session }) => session,
    );
  io.use((socket, next) => {
    sessionOf(socket).then(
      (session) => {
        socket.data.user = session?.user;
        next();
      },
      (error: unknown) => next(error instanceof Error ? error : new Error('Session lookup failed')),
    );
  });

  io.on('connection', (socket) => {
    if (policies.isAdmin(socket.data.user)) {
      void socket.join(ADMINS_ROOM);
      notifier.adminJoined();
    }
  });

  const recheckTimer = startRechecks(io, sessionOf, deps.bus);

  notifier.attach(io, { isShared: redisClients.length > 0 });
  deps.multiplayer?.attach(io, {
    sessions,
    sessionOf,
    bus: deps.bus,
    ...(deps.playTickets ? { playTickets: deps.playTickets } : {}),
    isFromGamesOrigin,
  });

  const detachRooms = deps.rooms
    ? attachRoomsNamespace(io, {
        rooms: deps.rooms.service,
        resolveGame: deps.rooms.resolveGame,
        sessionOf,
        bus: deps.bus,
      })
    : undefined;

  return {
    io,
    async close() {
      closing = true;
      await detachRooms?.();
      clearInterval(recheckTimer);
      notifier.detach();
      deps.multiplayer?.close();
      await io.close();
      redisClients.forEach((client) => client.disconnect());
    },
  };
}
