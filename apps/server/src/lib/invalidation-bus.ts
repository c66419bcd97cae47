import type { Redis } from 'ioredis';

/** Tells every server process that cached data about a user must be dropped. */
export interface InvalidationBus {
  publish(userId: string): void;
  subscribe(listener: (userId: string) => void): void;
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
  const deliver = (userId: string) => listeners.forEach((listener) => listener(userId));
  void subscriber
    .subscribe(channel)
    .catch((error: unknown) => console.warn('[invalidate] subscribe failed', error));
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) {
      deliver(message);
    }
  });
  return {
    publish(userId) {
      // deliver locally at once; other processes hear it through Redis
      deliver(userId);
      publisher
        .publish(channel, userId)
        .catch((error: unknown) => console.warn('[invalidate] publish failed', error));
    },
    subscribe: (listener) => void listeners.push(listener),
    close: async () => {
      await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}
