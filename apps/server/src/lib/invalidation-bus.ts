import type { Redis } from 'ioredis';
import { moduleLogger } from './logger.js';

const log = moduleLogger('invalidate');

/** Tells every server process that cached data about a user must be dropped. */
export interface InvalidationBus {
  publish(userId: string): void;
  subscribe(listener: (userId: string) => void): void;
  /**
   * Called when messages may have been missed (the process lost Redis and is connected again):
   * listeners drop everything they cached. Never called on a single-process bus.
   */
  onResync?(listener: () => void): void;
  /** False while messages from other processes cannot arrive (Redis is down). */
  isConnected?(): boolean;
  close(): Promise<void>;
}

export function createLocalInvalidationBus(): InvalidationBus {
  const listeners: Array<(userId: string) => void> = [];
  return {
    publish: (userId) => listeners.forEach((listener) => listener(userId)),
    subscribe: (listener) => void listeners.push(listener),
    close: () => Promise.resolve(),
  };
}

/** The Redis channel on which processes sharing `prefix` announce invalidated user ids. */
export const invalidationChannel = (prefix: string) => `${prefix}:invalidate-user`;

/**
 * Redis pub/sub on `<prefix>:invalidate-user`: `publisher` is a normal connection, `subscriber` a
 * dedicated one made with `connectRedis(…, { subscriber: true })`, so the subscription is made
 * whenever Redis becomes reachable.
 */
export function createRedisInvalidationBus(
  publisher: Redis,
  subscriber: Redis,
  prefix: string,
): InvalidationBus {
  const channel = invalidationChannel(prefix);
  const listeners: Array<(userId: string) => void> = [];
  const resyncListeners: Array<() => void> = [];
  const deliver = (userId: string) => listeners.forEach((listener) => listener(userId));
  // A publish made while this process was cut off from Redis never reaches it: once the
  // subscription is back, everything cached about users is dropped and read again.
  let connected = subscriber.status === 'ready';
  let lost = !connected;
  subscriber.on('close', () => {
    if (connected) {
      lost = true;
    }
    connected = false;
  });
  subscriber.on('ready', () => {
    connected = true;
    if (lost) {
      lost = false;
      log.info('Redis is back: dropping cached sessions');
      resyncListeners.forEach((listener) => listener());
    }
  });
  // a publish that failed (Redis down) is sent again once the connection is back, so a process
  // that never lost Redis itself still hears of a logout made elsewhere during the outage
  const unsent = new Set<string>();
  const send = (userId: string) => {
    publisher.publish(channel, userId).catch(() => {
      if (unsent.size < 100_000) {
        unsent.add(userId);
      }
    });
  };
  publisher.on('ready', () => {
    const pending = [...unsent];
    unsent.clear();
    pending.forEach(send);
  });
  void subscriber
    .subscribe(channel)
    .catch((error: unknown) => log.warn({ err: error }, 'subscribe failed'));
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) {
      deliver(message);
    }
  });
  return {
    publish(userId) {
      // deliver locally at once; other processes hear it through Redis
      deliver(userId);
      send(userId);
    },
    subscribe: (listener) => void listeners.push(listener),
    onResync: (listener) => void resyncListeners.push(listener),
    isConnected: () => connected,
    close: async () => {
      // while Redis is down a subscriber's commands wait for it: there is nothing to undo then
      if (subscriber.status === 'ready') {
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
    },
  };
}
