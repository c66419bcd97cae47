import { ConfigError, loadConfig } from './config.js';
import { ListenError, startServer } from './server.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let running;
  try {
    running = await startServer(config);
  } catch (error) {
    if (error instanceof ListenError) {
      console.error(`[server] ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const store = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  console.info(
    `[server] database: ${store}; realtime: ${config.redisUrl ? 'Redis' : 'in-process'}`,
  );
  console.info(`[server] listening on ${running.url}`);
  console.info(
    `[server] games origin on ${running.gamesUrl}${config.gamesHost.origin ? ` (public: ${config.gamesHost.origin})` : ''}`,
  );
  // the C++ backend check and its warm-up (precompiled headers, the WebAssembly compiler) run
  // after start, off its path
  void running.deps.codeRunner.warmUp({ prebuild: true }).then((availability) => {
    console.info(
      availability.ok
        ? `[run-code] backend ${availability.backend} (${availability.compiler}): ${availability.reason}`
        : `[run-code] unavailable (POST /run-code answers 503): ${availability.reason}`,
    );
  });

  const shutdown = (signal: string) => {
    console.info(`[server] ${signal} received, shutting down`);
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('[server] shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('[server] failed to start', error);
  process.exit(1);
});
