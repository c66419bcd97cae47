import { createHash, randomInt } from 'node:crypto';

import { CHAT_HISTORY, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '@portfolio/types/rooms';

/*
 * The room store: where rooms live, so that every replica sees the same rooms (Redis) or, on one
 * process, in memory. The store keeps records; the service (service.ts) decides what they mean.
 * A room is one record (the room and its seats) changed only through `update`, which applies a
 * function to the newest record and writes it only if nobody wrote in between (optimistic
 * concurrency: Redis compares a version in a Lua script), so two replicas never both take the
 * last seat. State keys and chat lines are kept beside the record.
 */

export interface RoomRecord {
  code: string;
  gameId: string;
  isPrivate: boolean;
  maxPlayers: number;
  /** Epoch ms. */
  createdAt: number;
  /** The host's player id (a seated player), or null when only spectators are left. */
  hostId: string | null;
  /** Next seat's join order. */
  nextOrder: number;
}

export interface Seat {
  playerId: string;
  name: string;
  userId: string | null;
  /** SHA-256 of the seat token (hex): the token itself is only the client's. */
  tokenHash: string;
  isSpectator: boolean;
  /** Dropped: the seat is held until then (epoch ms); null while connected. */
  awayUntil: number | null;
  /** Join order: the host hand-over goes to the lowest present one. */
  order: number;
  /** The replica and socket that hold the seat now (a drop of an older socket is ignored). */
  replicaId: string;
  socketId: string;
}

export interface RoomSnapshot {
  room: RoomRecord;
  seats: Seat[];
}

/** A line of a room's chat as kept (the author's user id for reports). */
export interface StoredChatLine {
  id: string;
  from: { id: string; name: string };
  authorUserId: string | null;
  text: string;
  at: string;
}

/** What an update does: keep the room as it is, write it, or delete it; and its result. */
export type RoomChange<T> =
  | { kind: 'keep'; result: T }
  | { kind: 'write'; next: RoomSnapshot; result: T }
  | { kind: 'delete'; result: T };

export type CasOutcome = 'swapped' | 'different' | 'full';

export interface RoomStore {
  /** Adds a room; false when its code is taken (the caller draws another). */
  create(snapshot: RoomSnapshot): Promise<boolean>;
  get(code: string): Promise<RoomSnapshot | undefined>;
  /** Several rooms at once (missing ones left out). */
  getMany(codes: string[]): Promise<RoomSnapshot[]>;
  /**
   * Applies `change` to the newest record (undefined: no such room) and writes its outcome
   * atomically; on a concurrent write it runs `change` again on the newer record.
   */
  update<T>(code: string, change: (current: RoomSnapshot | undefined) => RoomChange<T>): Promise<T>;
  /** Codes of every live room (the admin's list, the sweep). */
  listCodes(): Promise<string[]>;
  /** Codes of a game's public rooms (the lobby, quick join). */
  listPublic(gameId: string): Promise<string[]>;
  /** A room the admin closed: joining it says so for a day. */
  markClosed(code: string): Promise<void>;
  isClosed(code: string): Promise<boolean>;
  state(code: string): Promise<Record<string, string>>;
  /** Sets a key (value as JSON text); false when it is a new key and the room holds keysMax. */
  setState(code: string, key: string, value: string, keysMax: number): Promise<boolean>;
  /** Sets `key` to `value` only if it holds `expected` (null: not set). */
  compareAndSet(
    code: string,
    key: string,
    expected: string | null,
    value: string,
    keysMax: number,
  ): Promise<CasOutcome>;
  addChat(code: string, line: StoredChatLine): Promise<void>;
  /** The last CHAT_HISTORY lines, oldest first. */
  chat(code: string): Promise<StoredChatLine[]>;
  /** This replica is alive for `ttlMs` more (its seats are not taken over by the sweep). */
  touchReplica(replicaId: string, ttlMs: number): Promise<void>;
  isReplicaAlive(replicaId: string): Promise<boolean>;
  /**
   * Whether the store can answer now. The sweep skips a round while Redis is still connecting,
   * reconnecting or closing: a command then fails its whole auto-pipelined batch, which holds
   * other modules' commands too (a rate limit's, say).
   */
  isReady(): boolean;
  close(): Promise<void>;
}

/** How long a closed room's code answers ROOM_CLOSED rather than ROOM_NOT_FOUND. */
export const CLOSED_ROOM_MEMORY_MS = 24 * 60 * 60 * 1000;

export { CHAT_HISTORY };

/** A room code: ROOM_CODE_LENGTH characters of ROOM_CODE_ALPHABET, from the crypto RNG. */
export function newRoomCode(): string {
  let code = '';
  for (let index = 0; index < ROOM_CODE_LENGTH; index += 1) {
    code += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
  }
  return code;
}

export function hashSeatToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * JSON text with object keys sorted, so equal values have equal text (compare-and-set compares
 * texts; `{a:1,b:2}` and `{b:2,a:1}` are the same value).
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(inner).sort()) {
        sorted[key] = (inner as Record<string, unknown>)[key];
      }
      return sorted;
    }
    return inner;
  });
}
