import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Redis } from 'ioredis';

import { connectRedis, waitForRedis } from '../../lib/redis.js';
import { uniqueName } from '../../test/harness.js';
import { createRedisRoomStore } from './redis-store.js';
import { describeRoomServiceContract } from './room-service.contract.js';

// CI sets REDIS_URL; without it this suite is skipped, never silently passed against memory
const redisUrl = process.env.REDIS_URL;
let redis: Redis | undefined;
const prefixes: string[] = [];

beforeAll(async () => {
  if (redisUrl) {
    redis = connectRedis(redisUrl, 'rooms-contract');
    await waitForRedis(redis);
  }
});

afterAll(async () => {
  if (redis) {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:rooms:*`);
      if (keys.length) {
        await redis.del(...keys);
      }
    }
    redis.disconnect();
  }
});

describe.skipIf(!redisUrl)('redis room store', () => {
  it('is reachable', () => undefined);
});

if (redisUrl) {
  describeRoomServiceContract('redis', () => {
    if (!redis) {
      throw new Error('REDIS_URL is not set');
    }
    const prefix = uniqueName('rooms-contract');
    prefixes.push(prefix);
    return createRedisRoomStore(redis, { prefix });
  });
}
