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

const CHANNEL = 'portfolio:invalidate-user';

/** Redis pub/sub: `publisher` is a normal connection, `subscriber` a dedicated one. */
export function createRedisInvalidationBus(publisher: Redis, subscriber: Redis): InvalidationBus {
  const listeners: Array<(userId: string) => void> = [];
  const deliver = (userId: string) => listeners.forEach((listener) => listener(userId));
  void subscriber
    .subscribe(CHANNEL)
    .catch((error: unknown) => console.warn('[invalidate] subscribe failed', error));
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === CHANNEL) {
      deliver(message);
    }
  });
  return {
    publish(userId) {
      // deliver locally at once; other processes hear it through Redis
      deliver(userId);
      publisher
        .publish(CHANNEL, userId)
        .catch((error: unknown) => console.warn('[invalidate] publish failed', error));
    },
    subscribe: (listener) => void listeners.push(listener),
    close: async () => {
      await subscriber.unsubscribe(CHANNEL).catch(() => undefined);
    },
  };
}
