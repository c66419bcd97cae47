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
 * Records a batch of heartbeats in one round trip, in order: for each, read the previous score,
 * store the entry, bump its score, and return the previous score when it was still active (else
 * ''). KEYS: entries hash, lastSeen zset. ARGV: windowMs, ttlMs, then (member, entry JSON,
 * lastSeen) per heartbeat.
 */
const TOUCH_SCRIPT = `
local window = tonumber(ARGV[1])
local result = {}
for i = 3, #ARGV, 3 do
  local member = ARGV[i]
  local now = tonumber(ARGV[i + 2])
  local previous = redis.call('ZSCORE', KEYS[2], member)
  redis.call('HSET', KEYS[1], member, ARGV[i + 1])
  redis.call('ZADD', KEYS[2], now, member)
  if previous and tonumber(previous) > now - window then
    result[#result + 1] = previous
  else
    result[#result + 1] = ''
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return result
`;

/** Heartbeats per script call; a busy tick's heartbeats go in one call, split at this size. */
const TOUCH_BATCH = 500;

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

/**
 * Forgets an entry, or with a page load id (ARGV[2], '' for none) only when the entry's latest
 * heartbeat came from that page load or named none. KEYS: entries hash, lastSeen zset.
 * ARGV: member, page load id.
 */
const REMOVE_SCRIPT = `
if ARGV[2] ~= '' then
  local value = redis.call('HGET', KEYS[1], ARGV[1])
  if value then
    local ok, entry = pcall(cjson.decode, value)
    if ok and type(entry) == 'table' and type(entry.tab) == 'string' and entry.tab ~= ARGV[2] then
      return 0
    end
  end
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`;

type ScriptArg = string | number;

/**
 * Runs a Lua script: EVAL the first time (which also caches it in Redis), then EVALSHA, with EVAL
 * again on a NOSCRIPT reply (Redis restarted). The command is issued synchronously, so calls
 * reach Redis in the order they were made.
 */
function defineScript(lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  let isCached = false;
  return async (redis: Redis, keys: string[], args: ScriptArg[]): Promise<unknown> => {
    if (!isCached) {
      isCached = true;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
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
const runRemove = defineScript(REMOVE_SCRIPT);

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

  /**
   * Heartbeats that arrive in the same event-loop turn are sent as one script call: under load,
   * one Redis command and reply for dozens of heartbeats instead of one each.
   */
  let queue: Array<{
    entry: PresenceEntry;
    resolve: (previous: number | null) => void;
    reject: (error: unknown) => void;
  }> = [];

  async function sendBatch(batch: typeof queue) {
    const args: ScriptArg[] = [windowMs, KEY_TTL_MS];
    for (const { entry } of batch) {
      args.push(entry.key, JSON.stringify(entry), entry.lastSeen);
    }
    try {
      const replies = await runTouch(redis, [entriesKey, seenKey], args);
      batch.forEach(({ resolve }, index) => {
        const previous: unknown = Array.isArray(replies) ? replies[index] : undefined;
        resolve(typeof previous === 'string' && previous !== '' ? Number(previous) : null);
      });
    } catch (error) {
      for (const { reject } of batch) {
        reject(error);
      }
    }
  }

  function sendQueued() {
    const pending = queue;
    queue = [];
    for (let start = 0; start < pending.length; start += TOUCH_BATCH) {
      void sendBatch(pending.slice(start, start + TOUCH_BATCH));
    }
  }

  return {
    touch(entry) {
      return new Promise((resolve, reject) => {
        if (queue.length === 0) {
          setImmediate(sendQueued);
        }
        queue.push({ entry, resolve, reject });
      });
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
    async remove(key, tab) {
      // after any heartbeat already queued, so a removed entry is not written back (the script
      // is issued at once, so it reaches Redis after them)
      sendQueued();
      await runRemove(redis, [entriesKey, seenKey], [key, tab ?? '']);
    },
  };
}
