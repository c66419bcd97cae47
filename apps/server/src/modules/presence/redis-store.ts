import { createHash } from 'node:crypto';

import type { Redis } from 'ioredis';

import {
  ACTIVE_WINDOW_MS,
  type PresenceEntry,
  type PresenceStore,
  parseEntry,
} from './presence-store.js';

/** Keys expire when no process has written them for a day (an abandoned prefix cleans itself). */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * One round trip per heartbeat: read the previous score, store the entry, bump its score.
 * KEYS: entries hash, lastSeen zset. ARGV: member, entry JSON, lastSeen, windowMs, ttlMs.
 */
const TOUCH_SCRIPT = `
local previous = redis.call('ZSCORE', KEYS[2], ARGV[1])
local now = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if previous and tonumber(previous) > now - tonumber(ARGV[4]) then
  return previous
end
return false
`;

/**
 * Forgets entries at or below the cutoff and returns the JSON of the rest, in chunks so Lua's
 * unpack limit is never hit. KEYS: entries hash, lastSeen zset. ARGV: cutoff (exclusive).
 */
const LIST_SCRIPT = `
local cutoff = tonumber(ARGV[1])
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', cutoff)
for i = 1, #stale, 500 do
  redis.call('HDEL', KEYS[1], unpack(stale, i, math.min(i + 499, #stale)))
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cutoff)
local members = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. cutoff, '+inf')
local result = {}
for i = 1, #members, 500 do
  local values = redis.call('HMGET', KEYS[1], unpack(members, i, math.min(i + 499, #members)))
  for _, value in ipairs(values) do
    if value then
      result[#result + 1] = value
    end
  end
end
return result
`;

type ScriptArg = string | number;

/** Runs a Lua script by its SHA (EVALSHA), loading it on the first NOSCRIPT reply. */
function defineScript(lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (redis: Redis, keys: string[], args: ScriptArg[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return redis.eval(lua, keys.length, ...keys, ...args);
      }
      throw error;
    }
  };
}

const runTouch = defineScript(TOUCH_SCRIPT);
const runList = defineScript(LIST_SCRIPT);

export interface RedisPresenceStoreOptions {
  /** Key prefix; processes that share presence use the same one. */
  prefix: string;
  windowMs?: number;
}

/**
 * Presence shared by every process through Redis: a HASH of entry JSON plus a ZSET of lastSeen
 * scores (for pruning and counting), both under `<prefix>:{presence}:`.
 */
export function createRedisPresenceStore(
  redis: Redis,
  options: RedisPresenceStoreOptions,
): PresenceStore {
  const windowMs = options.windowMs ?? ACTIVE_WINDOW_MS;
  // the hash tag keeps both keys in one slot, so the scripts also work on Redis Cluster
  const entriesKey = `${options.prefix}:{presence}:entries`;
  const seenKey = `${options.prefix}:{presence}:seen`;

  return {
    async touch(entry) {
      const previous = await runTouch(
        redis,
        [entriesKey, seenKey],
        [entry.key, JSON.stringify(entry), entry.lastSeen, windowMs, KEY_TTL_MS],
      );
      return typeof previous === 'string' ? Number(previous) : null;
    },
    async listActive(now) {
      const values = await runList(redis, [entriesKey, seenKey], [now - windowMs]);
      if (!Array.isArray(values)) {
        return [];
      }
      const entries: PresenceEntry[] = [];
      for (const value of values) {
        const entry = typeof value === 'string' ? parseEntry(value) : undefined;
        if (entry) {
          entries.push(entry);
        }
      }
      return entries;
    },
    async countActive(now) {
      return redis.zcount(seenKey, `(${now - windowMs}`, '+inf');
    },
    async remove(key) {
      await redis.multi().hdel(entriesKey, key).zrem(seenKey, key).exec();
    },
  };
}
