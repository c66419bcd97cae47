import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

import { tooManyRequests } from './errors.js';

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Fixed-window counters; one implementation per process, one shared through Redis. */
export interface RateLimiter {
  consume(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
  /**
   * Gives back one request consumed in the key's current window, for limits that count only
   * some outcomes (failed logins): consume before acting, so concurrent requests cannot all slip
   * under the limit, and refund when the outcome does not count. Never goes below zero, and does
   * nothing once the window has ended.
   */
  refund(key: string): Promise<void>;
}

/**
 * Counts a request against `rule` under `key`; over the limit it throws 429 with `message` and
 * the seconds until the window ends (Retry-After).
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  key: string,
  rule: RateLimitRule,
  message: string,
): Promise<void> {
  const result = await limiter.consume(key, rule);
  if (!result.allowed) {
    throw tooManyRequests(message, result.retryAfterSeconds);
  }
}

/** The in-process limiter, which can also answer without a promise (the heartbeat's path). */
export interface MemoryRateLimiter extends RateLimiter {
  /** Counts a request as `consume` does: 0 when allowed, else the seconds until the window ends. */
  hit(key: string, rule: RateLimitRule): number;
}

export function createMemoryRateLimiter(now: () => number = Date.now): MemoryRateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  const secondsLeft = (resetAt: number, time: number) =>
    Math.max(1, Math.ceil((resetAt - time) / 1000));
  function count(key: string, rule: RateLimitRule, time: number) {
    if (time - lastSweep > 60_000) {
      for (const [storedKey, window] of windows) {
        if (window.resetAt <= time) {
          windows.delete(storedKey);
        }
      }
      lastSweep = time;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= time) {
      window = { count: 0, resetAt: time + rule.windowMs };
      windows.set(key, window);
    }
    window.count += 1;
    return window;
  }
  return {
    consume(key, rule) {
      const time = now();
      const window = count(key, rule, time);
      return Promise.resolve({
        allowed: window.count <= rule.limit,
        retryAfterSeconds: secondsLeft(window.resetAt, time),
      });
    },
    hit(key, rule) {
      const time = now();
      const window = count(key, rule, time);
      return window.count <= rule.limit ? 0 : secondsLeft(window.resetAt, time);
    },
    refund(key) {
      const window = windows.get(key);
      if (window && window.resetAt > now() && window.count > 0) {
        window.count -= 1;
      }
      return Promise.resolve();
    },
  };
}

// DECR keeps the key's expiry; checking first keeps an ended window from coming back as -1
const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`;

/** Where a key's counter lives in Redis: under the deployment's REDIS_PREFIX. */
export const rateLimitRedisKey = (prefix: string, key: string) => `${prefix}:ratelimit:${key}`;

/**
 * Shared counters in Redis, by rate-limiter-flexible: one Lua script sets the window's expiry and
 * increments in a single atomic step (a counter can never be left without an expiry), under
 * `<prefix>:ratelimit:`. While Redis is down (or not ready) the in-process limiter answers, so a
 * Redis outage neither opens nor closes the limits.
 *
 * Windows are whole seconds in Redis (rounded up): the store's expiry is set in seconds.
 */
export function createRedisRateLimiter(
  redis: Redis,
  options: { prefix: string; fallback?: RateLimiter },
): RateLimiter {
  const fallback = options.fallback ?? createMemoryRateLimiter();
  const keyPrefix = `${options.prefix}:ratelimit`;
  // one limiter object per rule; every one writes the same keys (the rule is not part of the key)
  const limiters = new Map<string, RateLimiterRedis>();
  const limiterFor = (rule: RateLimitRule) => {
    const id = `${rule.limit}/${rule.windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points: rule.limit,
        duration: Math.max(1, Math.ceil(rule.windowMs / 1000)),
        // fail at once while the connection is down: the fallback answers instead of waiting
        rejectIfRedisNotReady: true,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  const toResult = (result: RateLimiterRes, allowed: boolean): RateLimitResult => ({
    allowed,
    retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  });
  return {
    async consume(key, rule) {
      try {
        return toResult(await limiterFor(rule).consume(key), true);
      } catch (error) {
        // over the limit: the library rejects with the counter's state; anything else is Redis
        if (error instanceof RateLimiterRes) {
          return toResult(error, false);
        }
        return fallback.consume(key, rule);
      }
    },
    async refund(key) {
      try {
        await redis.eval(REFUND_SCRIPT, 1, rateLimitRedisKey(options.prefix, key));
      } catch {
        await fallback.refund(key);
      }
    },
  };
}
