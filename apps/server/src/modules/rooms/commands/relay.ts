import {
  ROOM_MESSAGE_MAX_BYTES,
  ROOM_RESERVED_TYPES,
  ROOM_STATE_KEYS_MAX,
} from '@portfolio/types/rooms';

import { type RoomMember, type RoomsContext, roomError } from '../context.js';
import { stableJson } from '../store.js';

/*
 * Game messages and state: relayed as they are (the server never looks inside `data`), after
 * the checks every one passes: a player (not a spectator), the rate (checked by the caller) and
 * the size.
 */

const RESERVED = new Set<string>(ROOM_RESERVED_TYPES);

function assertPlayer(member: RoomMember): void {
  if (member.isSpectator) {
    throw roomError('ROOM_SPECTATOR');
  }
}

/** The value as JSON text, refused over ROOM_MESSAGE_MAX_BYTES. */
function sized(value: unknown): string {
  const text = stableJson(value ?? null);
  if (Buffer.byteLength(text) > ROOM_MESSAGE_MAX_BYTES) {
    throw roomError(
      'ROOM_MESSAGE_TOO_LARGE',
      `The message is too large (at most ${ROOM_MESSAGE_MAX_BYTES / 1024} KB as JSON).`,
    );
  }
  return text;
}

/** To everyone else in the room, or to one player (`to`: their id; nobody when no such id). */
export function sendMessage(
  context: RoomsContext,
  member: RoomMember,
  request: { type: string; data?: unknown; to?: string | undefined },
): void {
  assertPlayer(member);
  if (RESERVED.has(request.type)) {
    throw roomError('BAD_REQUEST', `type: '${request.type}' is reserved for the room's own events`);
  }
  sized(request.data);
  const payload = { type: request.type, data: request.data ?? null, from: member.playerId };
  if (request.to !== undefined) {
    context.emitter().toPlayer(member.code, request.to, 'room:message', payload);
    return;
  }
  context.emitter().toRoom(member.code, 'room:message', payload, member.socketId);
}

export async function setState(
  context: RoomsContext,
  member: RoomMember,
  request: { key: string; value: unknown },
): Promise<void> {
  assertPlayer(member);
  const text = sized(request.value);
  if (!(await context.store.setState(member.code, request.key, text, ROOM_STATE_KEYS_MAX))) {
    throw roomError('ROOM_STATE_FULL');
  }
  context.emitter().toRoom(member.code, 'room:state', {
    key: request.key,
    value: request.value,
    by: member.playerId,
  });
}

/** Sets the key only if it holds `expected` now (null: not set); two racing, one swaps. */
export async function compareAndSet(
  context: RoomsContext,
  member: RoomMember,
  request: { key: string; expected: unknown; value: unknown },
): Promise<boolean> {
  assertPlayer(member);
  const text = sized(request.value);
  const expected = request.expected === null ? null : stableJson(request.expected);
  const outcome = await context.store.compareAndSet(
    member.code,
    request.key,
    expected,
    text,
    ROOM_STATE_KEYS_MAX,
  );
  if (outcome === 'full') {
    throw roomError('ROOM_STATE_FULL');
  }
  if (outcome === 'swapped') {
    context.emitter().toRoom(member.code, 'room:state', {
      key: request.key,
      value: request.value,
      by: member.playerId,
    });
  }
  return outcome === 'swapped';
}

/**
 * Game messages per player: a token bucket (`perSecond` on average, `burst` at once), in this
 * process (a player's socket is on one replica).
 */
export function createMessageLimiter(
  perSecond: number,
  burst: number,
  now: () => number = Date.now,
) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Takes one token; false when the player is over the rate. */
    take(playerId: string): boolean {
      const time = now();
      const bucket = buckets.get(playerId) ?? { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      if (bucket.tokens < 1) {
        buckets.set(playerId, bucket);
        return false;
      }
      bucket.tokens -= 1;
      buckets.set(playerId, bucket);
      return true;
    },
    forget(playerId: string): void {
      buckets.delete(playerId);
    },
  };
}
