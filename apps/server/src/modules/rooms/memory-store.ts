import {
  CHAT_HISTORY,
  CLOSED_ROOM_MEMORY_MS,
  type RoomSnapshot,
  type RoomStore,
  type StoredChatLine,
} from './store.js';

interface MemoryRoom {
  snapshot: RoomSnapshot;
  state: Map<string, string>;
  chat: StoredChatLine[];
}

/** Copies, so a caller's changes never reach the store without `update`. */
const copy = (snapshot: RoomSnapshot): RoomSnapshot => ({
  room: { ...snapshot.room },
  seats: snapshot.seats.map((seat) => ({ ...seat })),
});

/** Rooms in this process (no REDIS_URL): one replica, so every update is already atomic. */
export function createMemoryRoomStore(now: () => number = Date.now): RoomStore {
  const rooms = new Map<string, MemoryRoom>();
  const closed = new Map<string, number>();

  return {
    create(snapshot) {
      if (rooms.has(snapshot.room.code)) {
        return Promise.resolve(false);
      }
      rooms.set(snapshot.room.code, { snapshot: copy(snapshot), state: new Map(), chat: [] });
      return Promise.resolve(true);
    },
    get(code) {
      const room = rooms.get(code);
      return Promise.resolve(room ? copy(room.snapshot) : undefined);
    },
    getMany(codes) {
      return Promise.resolve(
        codes.flatMap((code) => {
          const room = rooms.get(code);
          return room ? [copy(room.snapshot)] : [];
        }),
      );
    },
    update(code, change) {
      const room = rooms.get(code);
      const outcome = change(room ? copy(room.snapshot) : undefined);
      if (outcome.kind === 'write') {
        if (room) {
          room.snapshot = copy(outcome.next);
        } else {
          rooms.set(code, { snapshot: copy(outcome.next), state: new Map(), chat: [] });
        }
      } else if (outcome.kind === 'delete') {
        rooms.delete(code);
      }
      return Promise.resolve(outcome.result);
    },
    listCodes() {
      return Promise.resolve([...rooms.keys()]);
    },
    listPublic(gameId) {
      return Promise.resolve(
        [...rooms.values()]
          .filter(({ snapshot }) => snapshot.room.gameId === gameId && !snapshot.room.isPrivate)
          .map(({ snapshot }) => snapshot.room.code),
      );
    },
    markClosed(code) {
      closed.set(code, now() + CLOSED_ROOM_MEMORY_MS);
      for (const [key, until] of closed) {
        if (until <= now()) {
          closed.delete(key);
        }
      }
      return Promise.resolve();
    },
    isClosed(code) {
      return Promise.resolve((closed.get(code) ?? 0) > now());
    },
    state(code) {
      return Promise.resolve(Object.fromEntries(rooms.get(code)?.state ?? []));
    },
    setState(code, key, value, keysMax) {
      const state = rooms.get(code)?.state;
      if (!state || (!state.has(key) && state.size >= keysMax)) {
        return Promise.resolve(false);
      }
      state.set(key, value);
      return Promise.resolve(true);
    },
    compareAndSet(code, key, expected, value, keysMax) {
      const state = rooms.get(code)?.state;
      if (!state) {
        return Promise.resolve('different');
      }
      if ((state.get(key) ?? null) !== expected) {
        return Promise.resolve('different');
      }
      if (!state.has(key) && state.size >= keysMax) {
        return Promise.resolve('full');
      }
      state.set(key, value);
      return Promise.resolve('swapped');
    },
    addChat(code, line) {
      const chat = rooms.get(code)?.chat;
      if (chat) {
        chat.push(line);
        chat.splice(0, Math.max(0, chat.length - CHAT_HISTORY));
      }
      return Promise.resolve();
    },
    chat(code) {
      return Promise.resolve([...(rooms.get(code)?.chat ?? [])]);
    },
    touchReplica() {
      return Promise.resolve();
    },
    // one process: its own seats only
    isReplicaAlive() {
      return Promise.resolve(true);
    },
    isReady() {
      return true;
    },
    close() {
      return Promise.resolve();
    },
  };
}
