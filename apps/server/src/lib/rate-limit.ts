import type { Redis } from 'ioredis';

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

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  return {
    consume(key, rule) {
      const time = now();
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
      const allowed = window.count <= rule.limit;
      return Promise.resolve({
        allowed,
        retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - time) / 1000)),
      });
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

/** Shared counters in Redis; falls back to the in-process limiter while Redis is down. */
export function createRedisRateLimiter(
  redis: Redis,
  fallback: RateLimiter = createMemoryRateLimiter(),
): RateLimiter {
  return {
    async consume(key, rule) {
      const redisKey = `ratelimit:${key}`;
      try {
        const result = await redis.multi().incr(redisKey).pttl(redisKey).exec();
        const count = Number(result?.[0]?.[1] ?? 0);
        let ttl = Number(result?.[1]?.[1] ?? -1);
        if (ttl < 0) {
          await redis.pexpire(redisKey, rule.windowMs);
          ttl = rule.windowMs;
        }
        return {
          allowed: count <= rule.limit,
          retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)),
        };
      } catch {
        return fallback.consume(key, rule);
      }
    },
    async refund(key) {
      try {
        await redis.eval(REFUND_SCRIPT, 1, `ratelimit:${key}`);
      } catch {
        await fallback.refund(key);
      }
    },
  };
}
