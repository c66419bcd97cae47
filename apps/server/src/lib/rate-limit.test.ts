import { randomBytes } from 'node:crypto';

import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  rateLimitRedisKey,
  type RateLimiter,
} from './rate-limit.js';
import { connectRedis, waitForRedis } from './redis.js';

const PREFIX = `rl-test-${randomBytes(4).toString('hex')}`;
const uniqueKey = () => `test:${randomBytes(6).toString('hex')}`;

async function consumeTimes(
  limiter: RateLimiter,
  key: string,
  times: number,
  rule = { limit: 3, windowMs: 60_000 },
) {
  const results = [];
  for (let i = 0; i < times; i++) {
    results.push(await limiter.consume(key, rule));
  }
  return results;
}

/** What every implementation must do (the in-process one and the shared Redis one). */
function describeLimiterContract(name: string, makeLimiter: () => RateLimiter) {
  describe(`${name} rate limiter`, () => {
    it('allows `limit` requests per window, then refuses with a Retry-After within the window', async () => {
      const results = await consumeTimes(makeLimiter(), uniqueKey(), 5);
      expect(results.map((result) => result.allowed)).toEqual([true, true, true, false, false]);
      for (const result of results) {
        expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(result.retryAfterSeconds).toBeLessThanOrEqual(60);
      }
    });

    it('counts each key on its own', async () => {
      const limiter = makeLimiter();
      await consumeTimes(limiter, uniqueKey(), 4);
      expect((await limiter.consume(uniqueKey(), { limit: 3, windowMs: 60_000 })).allowed).toBe(
        true,
      );
    });

    it('lets a refunded request be made again within the window', async () => {
      const limiter = makeLimiter();
      const key = uniqueKey();
      await consumeTimes(limiter, key, 3);
      await limiter.refund(key);
      const results = await consumeTimes(limiter, key, 2);
      expect(results.map((result) => result.allowed)).toEqual([true, false]);
    });

    it('never refunds below zero, nor a key it has not counted', async () => {
      const limiter = makeLimiter();
      const key = uniqueKey();
      await limiter.refund(key);
      await consumeTimes(limiter, key, 1);
      await limiter.refund(key);
      await limiter.refund(key);
      const results = await consumeTimes(limiter, key, 4);
      expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    });
  });
}

describeLimiterContract('in-process', () => createMemoryRateLimiter());

describe('in-process rate limiter over time', () => {
  it('opens a new window once the old one has passed', async () => {
    let time = 1_000_000;
    const limiter = createMemoryRateLimiter(() => time);
    const rule = { limit: 2, windowMs: 10_000 };
    expect((await consumeTimes(limiter, 'k', 3, rule)).map((result) => result.allowed)).toEqual([
      true,
      true,
      false,
    ]);

    time += 4_000;
    const refused = await limiter.consume('k', rule);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 6 });

    time += 6_000;
    expect((await limiter.consume('k', rule)).allowed).toBe(true);
  });

  it('does not carry a refund over into the next window', async () => {
    let time = 1_000_000;
    const limiter = createMemoryRateLimiter(() => time);
    const rule = { limit: 2, windowMs: 10_000 };
    await consumeTimes(limiter, 'k', 2, rule);
    time += 10_000;
    await limiter.refund('k');
    expect((await consumeTimes(limiter, 'k', 3, rule)).map((result) => result.allowed)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

const redisUrl = process.env.REDIS_URL;
describe.runIf(redisUrl)('with Redis', () => {
  let redis: Redis | undefined;
  const getRedis = () => {
    redis ??= connectRedis(redisUrl ?? '', 'rate-limit-test');
    return redis;
  };
  // without this the limiter would quietly fall back to memory and the Redis path would go untested
  beforeAll(async () => {
    await waitForRedis(getRedis());
  });
  afterAll(() => {
    redis?.disconnect();
  });

  describeLimiterContract('Redis', () => createRedisRateLimiter(getRedis(), { prefix: PREFIX }));

  it('shares counters between processes', async () => {
    const key = uniqueKey();
    const rule = { limit: 2, windowMs: 60_000 };
    const first = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    const second = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    expect((await first.consume(key, rule)).allowed).toBe(true);
    expect((await second.consume(key, rule)).allowed).toBe(true);
    expect((await first.consume(key, rule)).allowed).toBe(false);
  });

  it('opens a new window once the old one has expired', async () => {
    const limiter = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    const key = uniqueKey();
    const rule = { limit: 1, windowMs: 1000 };
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
    expect((await limiter.consume(key, rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
  });

  it('keeps the window when refunding, and leaves no key behind once it has expired', async () => {
    const limiter = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    const key = uniqueKey();
    const rule = { limit: 1, windowMs: 1000 };
    await limiter.consume(key, rule);
    await limiter.refund(key);
    expect(await getRedis().pttl(rateLimitRedisKey(PREFIX, key))).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await limiter.refund(key);
    expect(await getRedis().exists(rateLimitRedisKey(PREFIX, key))).toBe(0);
  });

  it('shares refunds between processes', async () => {
    const key = uniqueKey();
    const rule = { limit: 1, windowMs: 60_000 };
    const first = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    const second = createRedisRateLimiter(getRedis(), { prefix: PREFIX });
    expect((await first.consume(key, rule)).allowed).toBe(true);
    await second.refund(key);
    expect((await first.consume(key, rule)).allowed).toBe(true);
    expect((await second.consume(key, rule)).allowed).toBe(false);
  });
});

describe.runIf(redisUrl)('Redis rate limiter keys and outages', () => {
  it('keeps its counters under the prefix, always with an expiry', async () => {
    const redis = connectRedis(redisUrl ?? '', 'rate-limit-prefix-test');
    try {
      await waitForRedis(redis);
      const key = uniqueKey();
      await createRedisRateLimiter(redis, { prefix: PREFIX }).consume(key, {
        limit: 5,
        windowMs: 60_000,
      });
      expect(await redis.exists(`ratelimit:${key}`)).toBe(0);
      const ttl = await redis.pttl(rateLimitRedisKey(PREFIX, key));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
    }
  });

  it('answers from memory while Redis is unreachable', async () => {
    // nothing listens on port 1: every command fails at once
    const redis = connectRedis('redis://127.0.0.1:1', 'rate-limit-down-test');
    try {
      const limiter = createRedisRateLimiter(redis, { prefix: PREFIX });
      const results = await consumeTimes(limiter, uniqueKey(), 4);
      expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    } finally {
      redis.disconnect();
    }
  });
});
