import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

import { createApp } from './app.js';
import { applyConnectionLimits, keepRequestDeadlinesFirst } from './lib/connection-limits.js';
import { createGracefulClose } from './lib/graceful-close.js';
import { addMetricsSource, type MetricsServer, startMetricsServer } from './lib/metrics.js';
import { collectMetricsSource } from './metrics-source.js';
import { DEFAULT_GAMES_DIR } from './lib/paths.js';
import { type GamesServer, createGamesServer } from './modules/game-host/games-server.js';
import { isBuildUpload } from './modules/game-host/routes.js';
import { isMediaUpload } from './modules/media/routes.js';
import { createHeartbeatFastPath } from './modules/presence/heartbeat-fast-path.js';
import { type BuildOptions, type Deps, buildDeps } from './container.js';
import { errorBody, HttpError } from './lib/errors.js';
import type { Config } from './config.js';
import { type Realtime, createRealtime } from './realtime/socket-server.js';
import { moduleLogger } from './lib/logger.js';

const log = moduleLogger('admin');

export interface RunningServer {
  deps: Deps;
  server: Server;
  realtime: Realtime;
  url: string;
  /** The games origin's server, on config.gamesHost.port. */
  games: GamesServer;
  /** Where this process serves the games origin (http://<host>:<games port>). */
  gamesUrl: string;
  /** The metrics listener's address (METRICS_PORT), if one was asked for. */
  metricsUrl: string | undefined;
  /** Stops accepting, lets in-flight requests finish, flushes and closes the database. */
  stop(): Promise<void>;
}

/** A port the server cannot listen on, said in one line that names the setting to change. */
export class ListenError extends Error {}

function explainListenError(error: unknown, setting: 'PORT' | 'GAMES_PORT', port: number) {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const games = setting === 'GAMES_PORT' ? ' (the games origin; default PORT + 1)' : '';
  if (code === 'EADDRINUSE') {
    return new ListenError(
      `port ${port} is already in use${games}: stop what uses it or start with another ${setting}`,
    );
  }
  if (code === 'EACCES') {
    return new ListenError(
      `port ${port} needs more privileges than this user has${games}: start with another ${setting}`,
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ListenError(`HOST is not an address of this machine: cannot listen on port ${port}`);
  }
  return error;
}

/** What the port answers before the app exists (database opening, migrations running). */
function answerWhileStarting(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0];
  const send = (status: number, body: unknown) => {
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(status === 503 ? { 'Retry-After': '5' } : {}),
    });
    res.end(JSON.stringify(body));
  };
  if (path === '/api/health') {
    send(200, { ok: true });
    return;
  }
  if (path === '/api/ready') {
    send(503, { ready: false, reason: 'migrations running' });
    return;
  }
  send(
    503,
    errorBody(
      new HttpError('SERVICE_UNAVAILABLE', 'The site is starting. Please try again in a moment.'),
    ),
  );
}

/** Opens the port, builds everything, then serves. Shared by main.ts and the integration tests. */
export async function startServer(
  config: Config,
  options: BuildOptions = {},
): Promise<RunningServer> {
  // the port opens first: while the database is opened and migrated (replicas take turns under
  // an advisory lock) GET /api/ready answers 503 "migrations running" and /api/health 200, so a
  // proxy or orchestrator sees a live process that is not ready yet
  let handle: RequestListener = answerWhileStarting;
  // header and request timeouts are checked every second (Node's default is every 30 s)
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) =>
    handle(req, res),
  );
  server.keepAliveTimeout = 65_000;
  // a game build or a video may take minutes to upload: cut only when it stalls
  applyConnectionLimits(server, config.connections, config.trustProxy, {
    isLongUpload: (req) => isBuildUpload(req) || isMediaUpload(req),
  });
  const graceful = createGracefulClose(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    throw explainListenError(error, 'PORT', config.port);
  }
  let deps: Deps;
  try {
    deps = await buildDeps(config, options);
    if (config.admin) {
      const { created } = await deps.auth.ensureAdmin(config.admin.username, config.admin.password);
      log.info(`${created ? 'created' : 'ensured'} admin user '${config.admin.username}'`);
    }
  } catch (error) {
    await graceful.close(0);
    throw error;
  }
  const app = createApp(deps);
  const serveHeartbeat = createHeartbeatFastPath(deps);
  // heartbeats (most of the traffic) skip Express; every other request goes through it
  handle = (req, res) => {
    serveHeartbeat(req, res, app);
  };
  const realtime = await createRealtime(server, {
    config,
    sessions: deps.sessions,
    bus: deps.bus,
    notifier: deps.notifier,
    multiplayer: deps.multiplayer,
    playTickets: deps.playTickets,
    rooms: { service: deps.rooms, resolveGame: deps.gameHost.resolveGame },
  });
  // the engine took the request listeners when it attached: its requests get the deadlines too
  keepRequestDeadlinesFirst(server);
  const address = server.address() as AddressInfo;
  // PORT=0 (tests): the site's origins on the games origin (frame-ancestors) need the real port
  config.port = address.port;
  // the games origin beside the site, with the same limits
  const games = createGamesServer({
    config,
    // tests may serve fixture builds from a catalogue of their own
    catalogue: options.gameHostCatalogue ?? deps.gameHost.catalogue,
    grants: deps.gameHost.grants,
    sdkPath: path.join(DEFAULT_GAMES_DIR, 'sdk.js'),
    storage: deps.gameHost.storage,
  });
  try {
    await games.listen(config.host);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    await realtime.close();
    await deps.close();
    throw explainListenError(error, 'GAMES_PORT', config.gamesHost.port);
  }
  let metrics: MetricsServer | undefined;
  if (config.metrics.port !== undefined) {
    try {
      metrics = await startMetricsServer(config.metrics.host, config.metrics.port);
    } catch (error) {
      await games.close(0);
      await new Promise((resolve) => server.close(resolve));
      await realtime.close();
      await deps.close();
      throw error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? new ListenError(
            `port ${config.metrics.port} is already in use (METRICS_PORT): stop what uses it or start with another METRICS_PORT`,
          )
        : error;
    }
  }
  const removeMetricsSource = addMetricsSource(collectMetricsSource({ deps, server, realtime }));
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  return {
    deps,
    server,
    realtime,
    url: `http://${host}:${address.port}`,
    games,
    gamesUrl: `http://${host.includes(':') ? `[${host}]` : host}:${config.gamesHost.port}`,
    metricsUrl: metrics?.url,
    stop() {
      stopping ??= (async () => {
        // probes answer 503 from now on: the proxy sends new requests to the other replicas
        deps.readiness.markStopping();
        removeMetricsSource();
        await metrics?.close();
        // no new connections; running requests finish (cut after 8 s, so the exit stays within 10 s)
        const closed = graceful.close(8000);
        const gamesClosed = games.close(8000);
        // sockets hold the server open: disconnect them, then wait for in-flight requests
        await realtime.close();
        await closed;
        await gamesClosed;
        // deps.close flushes time on site and rollups, then closes the database
        await deps.close();
      })();
      return stopping;
    },
  };
}
