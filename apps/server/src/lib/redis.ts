import { Redis } from 'ioredis';

/**
 * A Redis connection that never crashes the process: errors are logged (once per outage),
 * commands fail fast while it is down, and it reconnects by itself.
 */
export function connectRedis(url: string, name: string): Redis {
  const client = new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // commands issued in the same tick (concurrent heartbeats) go out in one write
    enableAutoPipelining: true,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let isDown = false;
  client.on('error', (error: Error) => {
    if (!isDown) {
      console.warn(`[redis:${name}] ${error.message}`);
      isDown = true;
    }
  });
  client.on('ready', () => {
    if (isDown) {
      console.info(`[redis:${name}] connected again`);
    }
    isDown = false;
  });
  return client;
}

/** Waits until the client is ready (or fails after the timeout). */
export async function waitForRedis(client: Redis, timeoutMs = 5000): Promise<void> {
  if (client.status === 'ready') {
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}
