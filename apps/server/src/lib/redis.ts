import { Redis } from 'ioredis';

import { moduleLogger } from './logger.js';

/**
 * A Redis connection that never crashes the process: errors are logged (once per outage), and it
 * reconnects by itself.
 *
 * - A normal connection fails commands fast while Redis is down, so callers fall back at once.
 * - A `subscriber` connection (pub/sub only) instead holds its SUBSCRIBE commands until Redis is
 *   reachable, however long that takes, so a process started while Redis is down still subscribes
 *   when it comes up; ioredis then re-subscribes by itself after every reconnect.
 */
export function connectRedis(
  url: string,
  name: string,
  options: { subscriber?: boolean } = {},
): Redis {
  const isSubscriber = options.subscriber ?? false;
  const client = new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: isSubscriber ? null : 1,
    enableOfflineQueue: isSubscriber,
    // commands issued in the same tick (concurrent heartbeats) go out in one write
    enableAutoPipelining: !isSubscriber,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const log = moduleLogger(`redis:${name}`);
  let isDown = false;
  client.on('error', (error: Error) => {
    if (!isDown) {
      log.warn({ reason: error.message }, 'connection failed');
      isDown = true;
    }
  });
  client.on('ready', () => {
    if (isDown) {
      log.info('connected again');
    }
    isDown = false;
  });
  return client;
}

/**
 * How long startup waits for Redis. After that the process starts anyway: every Redis user falls
 * back to this process (presence, rate limits, pub/sub) and joins in when Redis comes up.
 */
export const REDIS_STARTUP_WAIT_MS = 2000;

/** Waits until the client is ready (or fails after the timeout). */
export async function waitForRedis(
  client: Redis,
  timeoutMs = REDIS_STARTUP_WAIT_MS,
): Promise<void> {
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
