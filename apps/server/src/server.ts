import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

import { createApp } from './app.js';
import { applyConnectionLimits } from './lib/connection-limits.js';
import { createGracefulClose } from './lib/graceful-close.js';
import { DEFAULT_GAMES_DIR } from './lib/paths.js';
import { type GamesServer, createGamesServer } from './modules/game-host/games-server.js';
import { isBuildUpload } from './modules/game-host/routes.js';
import { createHeartbeatFastPath } from './modules/presence/heartbeat-fast-path.js';
import { type BuildOptions, type Deps, buildDeps } from './container.js';
import type { Config } from './config.js';
import { type Realtime, createRealtime } from './realtime/socket-server.js';

export interface RunningServer {
  deps: Deps;
  server: Server;
  realtime: Realtime;
  url: string;
  /** The games origin's server, on config.gamesHost.port. */
  games: GamesServer;
  /** Where this process serves the games origin (http://<host>:<games port>). */
  gamesUrl: string;
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

/** Builds everything and listens. Shared by main.ts and the integration tests. */
export async function startServer(
  config: Config,
  options: BuildOptions = {},
): Promise<RunningServer> {
  const deps = await buildDeps(config, options);
  if (config.admin) {
    const { created } = await deps.auth.ensureAdmin(config.admin.username, config.admin.password);
    console.info(
      `[admin] ${created ? 'created' : 'ensured'} admin user '${config.admin.username}'`,
    );
  }
  const app = createApp(deps);
  const serveHeartbeat = createHeartbeatFastPath(deps);
  // heartbeats (most of the traffic) skip Express; every other request goes through it
  // header and request timeouts are checked every second (Node's default is every 30 s)
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) =>
    serveHeartbeat(req, res, () => {
      app(req, res);
    }),
  );
  server.keepAliveTimeout = 65_000;
  // a game build may take minutes to upload: cut only when it stalls
  applyConnectionLimits(server, config.connections, config.trustProxy, {
    isLongUpload: isBuildUpload,
  });
  const graceful = createGracefulClose(server);
  const realtime = await createRealtime(server, {
    config,
    sessions: deps.sessions,
    bus: deps.bus,
    notifier: deps.notifier,
    multiplayer: deps.multiplayer,
    playTickets: deps.playTickets,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await realtime.close();
    await deps.close();
    throw explainListenError(error, 'PORT', config.port);
  }
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
  });
  try {
    await games.listen(config.host);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    await realtime.close();
    await deps.close();
    throw explainListenError(error, 'GAMES_PORT', config.gamesHost.port);
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  return {
    deps,
    server,
    realtime,
    url: `http://${host}:${address.port}`,
    games,
    gamesUrl: `http://${host.includes(':') ? `[${host}]` : host}:${config.gamesHost.port}`,
    stop() {
      stopping ??= (async () => {
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
