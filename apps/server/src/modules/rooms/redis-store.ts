import type { Redis } from 'ioredis';

import {
  CHAT_HISTORY,
  CLOSED_ROOM_MEMORY_MS,
  type CasOutcome,
  type RoomSnapshot,
  type RoomStore,
  type StoredChatLine,
} from './store.js';

/*
 * Rooms in Redis, shared by every replica (keys under `<REDIS_PREFIX>:rooms:`):
 *   room:<code>      hash { v: version, data: RoomSnapshot as JSON }
 *   state:<code>     hash key -> JSON value
 *   chat:<code>      list of the last CHAT_HISTORY lines (JSON)
 *   all              set of live codes; public:<gameId> set of a game's public codes
 *   closed:<code>    the admin closed it (expires after a day)
 *   replica:<id>     a live replica (expires unless touched)
 * A room changes by read → change in JavaScript → write-if-version-unchanged (one Lua script),
 * retried on a concurrent write; state and compare-and-set are Lua scripts of their own.
 */

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'data', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
if ARGV[3] == '1' then redis.call('SADD', KEYS[3], ARGV[2]) end
return 1`;

// KEYS: room, all, public, state, chat; ARGV: expected version, new data ('' deletes), code
const UPDATE = `
local v = redis.call('HGET', KEYS[1], 'v')
if (v or '0') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1], KEYS[4], KEYS[5])
  redis.call('SREM', KEYS[2], ARGV[3])
  redis.call('SREM', KEYS[3], ARGV[3])
  return 1
end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v or '0') + 1), 'data', ARGV[2])
return 1`;

// KEYS: state, room; ARGV: key, value, keys max
const SET_STATE = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

// KEYS: state, room; ARGV: key, expected, expected is null ('1'), value, keys max
const COMPARE_AND_SET = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 'different' end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[3] == '1' then
  if current then return 'different' end
  if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then return 'full' end
elseif current ~= ARGV[2] then
  return 'different'
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
return 'swapped'`;

type Script = (...args: Array<string | number>) => Promise<unknown>;

/** How often an update is tried again after losing a race before it gives up. */
const UPDATE_ATTEMPTS = 50;

export function createRedisRoomStore(shared: Redis, options: { prefix: string }): RoomStore {
  // a connection of its own, without auto-pipelining: mixed into the shared connection's
  // pipelines, the rooms' scripts broke other modules' batches there (a rate limiter's script
  // answers went astray: "results[i] is not iterable", a limit counted in memory instead)
  const redis = shared.duplicate({ enableAutoPipelining: false, enableOfflineQueue: true });
  const base = `${options.prefix}:rooms`;
  const key = {
    room: (code: string) => `${base}:room:${code}`,
    state: (code: string) => `${base}:state:${code}`,
    chat: (code: string) => `${base}:chat:${code}`,
    all: `${base}:all`,
    public: (gameId: string) => `${base}:public:${gameId}`,
    closed: (code: string) => `${base}:closed:${code}`,
    replica: (id: string) => `${base}:replica:${id}`,
  };
  const script =
    (source: string, keys: number): Script =>
    (...args) =>
      redis.eval(source, keys, ...args);
  const createScript = script(CREATE, 3);
  const updateScript = script(UPDATE, 5);
  const setStateScript = script(SET_STATE, 2);
  const casScript = script(COMPARE_AND_SET, 2);

  const read = async (code: string) => {
    const [version, data] = await redis.hmget(key.room(code), 'v', 'data');
    return data
      ? { version: version ?? '0', snapshot: JSON.parse(data) as RoomSnapshot }
      : undefined;
  };

  return {
    async create(snapshot) {
      const { code, gameId, isPrivate } = snapshot.room;
      const created = await createScript(
        key.room(code),
        key.all,
        key.public(gameId),
        JSON.stringify(snapshot),
        code,
        isPrivate ? '0' : '1',
      );
      return created === 1;
    },
    async get(code) {
      return (await read(code))?.snapshot;
    },
    async getMany(codes) {
      if (codes.length === 0) {
        return [];
      }
      const pipeline = redis.pipeline();
      codes.forEach((code) => pipeline.hget(key.room(code), 'data'));
      const answers = (await pipeline.exec()) ?? [];
      return answers.flatMap(([error, data]) =>
        !error && typeof data === 'string' ? [JSON.parse(data) as RoomSnapshot] : [],
      );
    },
    async update(code, change) {
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
        const current = await read(code);
        const outcome = change(current?.snapshot);
        if (outcome.kind === 'keep') {
          return outcome.result;
        }
        const gameId = current?.snapshot.room.gameId ?? '';
        const written = await updateScript(
          key.room(code),
          key.all,
          key.public(gameId),
          key.state(code),
          key.chat(code),
          current?.version ?? '0',
          outcome.kind === 'write' ? JSON.stringify(outcome.next) : '',
          code,
        );
        if (written === 1) {
          return outcome.result;
        }
      }
      throw new Error(`room ${code}: too many concurrent changes`);
    },
    listCodes() {
      return redis.smembers(key.all);
    },
    listPublic(gameId) {
      return redis.smembers(key.public(gameId));
    },
    async markClosed(code) {
      await redis.set(key.closed(code), '1', 'PX', CLOSED_ROOM_MEMORY_MS);
    },
    async isClosed(code) {
      return (await redis.exists(key.closed(code))) === 1;
    },
    state(code) {
      return redis.hgetall(key.state(code));
    },
    async setState(code, stateKey, value, keysMax) {
      return (
        (await setStateScript(key.state(code), key.room(code), stateKey, value, keysMax)) === 1
      );
    },
    async compareAndSet(code, stateKey, expected, value, keysMax) {
      const outcome = await casScript(
        key.state(code),
        key.room(code),
        stateKey,
        expected ?? '',
        expected === null ? '1' : '0',
        value,
        keysMax,
      );
      return outcome as CasOutcome;
    },
    async addChat(code, line) {
      await redis
        .multi()
        .rpush(key.chat(code), JSON.stringify(line))
        .ltrim(key.chat(code), -CHAT_HISTORY, -1)
        // a line that lands after its room was deleted leaves no key behind for long
        .pexpire(key.chat(code), CLOSED_ROOM_MEMORY_MS)
        .exec();
    },
    async chat(code) {
      const lines = await redis.lrange(key.chat(code), 0, -1);
      return lines.map((line) => JSON.parse(line) as StoredChatLine);
    },
    async touchReplica(replicaId, ttlMs) {
      await redis.set(key.replica(replicaId), '1', 'PX', ttlMs);
    },
    async isReplicaAlive(replicaId) {
      return (await redis.exists(key.replica(replicaId))) === 1;
    },
    isReady() {
      return redis.status === 'ready';
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
