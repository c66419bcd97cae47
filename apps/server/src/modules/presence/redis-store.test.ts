import { afterAll, beforeAll } from 'vitest';
import type { Redis } from 'ioredis';

import { connectRedis, waitForRedis } from '../../lib/redis.js';
import { uniqueName } from '../../test/harness.js';
import { describePresenceStoreContract } from './presence-store.contract.js';
import { createRedisPresenceStore } from './redis-store.js';

// CI sets REDIS_URL; without it this suite is skipped, never silently passed against memory
const redisUrl = process.env.REDIS_URL;
let redis: Redis | undefined;
const prefixes: string[] = [];

beforeAll(async () => {
  if (redisUrl) {
    redis = connectRedis(redisUrl, 'presence-contract');
    await waitForRedis(redis);
  }
});

afterAll(async () => {
  if (redis) {
    const keys = prefixes.flatMap((prefix) => [
      `${prefix}:{presence}:entries`,
      `${prefix}:{presence}:seen`,
    ]);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
  }
});

describePresenceStoreContract(
  'redis',
  () => {
    if (!redis) {
      throw new Error('REDIS_URL is not set');
    }
    const prefix = uniqueName('presence-contract');
    prefixes.push(prefix);
    return createRedisPresenceStore(redis, { prefix });
  },
  { skip: !redisUrl },
);
