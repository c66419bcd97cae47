import { ConfigError, loadConfig } from './config.js';
import { moduleLogger } from './lib/logger.js';
import { StorageUnavailableError } from './lib/storage/object-storage.js';
import { ListenError, startServer } from './server.js';

const log = moduleLogger('server');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.gamesHost.sameSiteProblem) {
    // only with GAMES_ORIGIN_ALLOW_SAME_SITE=true in production (refused otherwise), or in
    // development off loopback: loud, on every start
    log.warn(
      `UNSAFE GAMES ORIGIN: ${config.gamesHost.sameSiteProblem}.${config.env === 'production' ? ' Started only because GAMES_ORIGIN_ALLOW_SAME_SITE=true.' : ''}`,
    );
  }
  let running;
  try {
    running = await startServer(config);
  } catch (error) {
    if (error instanceof ListenError || error instanceof StorageUnavailableError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const store = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  log.info(
    { database: config.databaseUrl ? 'postgres' : 'pglite', redis: Boolean(config.redisUrl) },
    `database: ${store}; realtime: ${config.redisUrl ? 'Redis' : 'in-process'}`,
  );
  if (running.metricsUrl) {
    log.info(`metrics on ${running.metricsUrl}/metrics`);
  }
  log.info({ url: running.url }, `listening on ${running.url}`);
  log.info(
    `games origin on ${running.gamesUrl}${config.gamesHost.origin ? ` (public: ${config.gamesHost.origin})` : ''}`,
  );
  // the C++ backend check and its warm-up (precompiled headers, the WebAssembly compiler) run
  // after start, off its path
  const runCodeLog = moduleLogger('run-code');
  void running.deps.codeRunner.warmUp({ prebuild: true }).then((availability) => {
    if (availability.ok) {
      runCodeLog.info(
        `backend ${availability.backend} (${availability.compiler}): ${availability.reason}`,
      );
    } else {
      runCodeLog.warn(`unavailable (POST /run-code answers 503): ${availability.reason}`);
    }
  });

  const shutdown = (signal: string) => {
    log.info(`${signal} received, shutting down`);
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
