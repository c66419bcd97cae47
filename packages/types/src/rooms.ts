import { z } from 'zod';

/*
 * Rooms for any game (issue 38): the wire contracts between the site's game viewer and the room
 * service, and between the game frame's SDK and the viewer.
 *
 *   game frame (games origin)  --postMessage-->  viewer (site origin)  --Socket.IO /rooms-->  server
 *
 * The SDK (`GameSDK.rooms`) never talks to the server itself: like save/load, it asks the viewer
 * (request type `rooms`, payload RoomsSdkRequest), and the viewer pushes what happens in the room
 * to the frame (`kind: 'room-event'`, RoomsSdkEvent). The viewer holds the one socket, with the
 * player's session cookie (or as a guest when the game allows guests), shows the lobby, the invite
 * link and the chat, and reconnects to the same seat with the seat token it was given.
 *
 * Every client-to-server event takes an acknowledgement callback that receives a RoomAck. The
 * server relays game messages and state, validated for size and rate, and never interprets them.
 */

/** The Socket.IO namespace of the room service (site origin; handshake `auth: RoomsHandshake`). */
export const ROOMS_NAMESPACE = '/rooms';

/** Room codes: 6 characters without look-alikes (no I, L, O, 0, 1). */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ROOM_CODE_LENGTH = 6;
export const RoomCode = z
  .string({ error: 'is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-HJKMNP-Z2-9]{6}$/, 'is not a room code');
export type RoomCode = z.infer<typeof RoomCode>;

export const ROOM_MAX_PLAYERS_DEFAULT = 4;
export const ROOM_MAX_PLAYERS_LIMIT = 16;
/** Spectators one room takes at most (they take no seat). */
export const ROOM_SPECTATORS_MAX = 32;
/** How long a dropped player's seat is held (per game setting, 0…ROOM_GRACE_SECONDS_MAX). */
export const ROOM_GRACE_SECONDS_DEFAULT = 20;
export const ROOM_GRACE_SECONDS_MAX = 120;
/** One game message's `data` (or one state value) as JSON, in bytes. */
export const ROOM_MESSAGE_MAX_BYTES = 16 * 1024;
/** Game messages (send, setState, compareAndSet) one player may send per second, on average. */
export const ROOM_MESSAGES_PER_SECOND = 30;
/** …and in one burst. */
export const ROOM_MESSAGES_BURST = 60;
/** Distinct state keys one room holds at most. */
export const ROOM_STATE_KEYS_MAX = 100;
export const CHAT_MESSAGE_MAX_LENGTH = 300;
/** Chat messages one player may send in CHAT_RATE_WINDOW_SECONDS. */
export const CHAT_MESSAGES_PER_WINDOW = 5;
export const CHAT_RATE_WINDOW_SECONDS = 10;
/** Chat lines a room keeps for a newcomer (and for a report's context). */
export const CHAT_HISTORY = 50;

/** A game message type or state key: a short name from a safe alphabet. */
export const RoomName = z
  .string({ error: 'is required' })
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1–64 letters, digits, _ . : or -');

/** The events the service itself sends to a game; a game may not send messages with these types. */
export const ROOM_RESERVED_TYPES = ['join', 'leave', 'host', 'state', 'closed', 'chat'] as const;

/** Per-game room settings (admin: PUT /api/admin/games/:gameId/rooms; defaults when never set). */
export const GameRoomSettings = z.object({
  /** Guests (not signed in) may create, join and spectate rooms of this game. */
  guests: z.boolean(),
  /** The viewer's in-room chat (a game that has its own turns it off). */
  chat: z.boolean(),
  graceSeconds: z.number().int().min(0).max(ROOM_GRACE_SECONDS_MAX),
  /** Seats a room has when the game does not ask for a number (create's maxPlayers caps at it). */
  maxPlayers: z.number().int().min(1).max(ROOM_MAX_PLAYERS_LIMIT),
});
export type GameRoomSettings = z.infer<typeof GameRoomSettings>;
export const DEFAULT_GAME_ROOM_SETTINGS: GameRoomSettings = {
  guests: false,
  chat: true,
  graceSeconds: ROOM_GRACE_SECONDS_DEFAULT,
  maxPlayers: ROOM_MAX_PLAYERS_DEFAULT,
};

/** The Socket.IO handshake's `auth` on ROOMS_NAMESPACE. */
export const RoomsHandshake = z.object({
  gameId: z.string().min(1).max(100),
});
export type RoomsHandshake = z.infer<typeof RoomsHandshake>;

export const RoomPlayer = z.object({
  /** Stable for the seat (across reconnects); not a user id. */
  id: z.string(),
  name: z.string(),
  isHost: z.boolean(),
  isSpectator: z.boolean(),
  /** Dropped and inside the grace period: the seat is held. */
  away: z.boolean(),
});
export type RoomPlayer = z.infer<typeof RoomPlayer>;

export const RoomView = z.object({
  code: z.string(),
  gameId: z.string(),
  private: z.boolean(),
  maxPlayers: z.number().int(),
  players: z.array(RoomPlayer),
  state: z.record(z.string(), z.json()),
  chat: z.boolean(),
  createdAt: z.string(),
});
export type RoomView = z.infer<typeof RoomView>;

/** Who this connection is in the room; `seatToken` takes the same seat back after a drop. */
export const RoomSeat = z.object({ playerId: z.string(), seatToken: z.string() });
export type RoomSeat = z.infer<typeof RoomSeat>;

/** A public room in the lobby (private rooms are never listed). */
export const PublicRoomSummary = z.object({
  code: z.string(),
  hostName: z.string(),
  players: z.number().int(),
  spectators: z.number().int(),
  maxPlayers: z.number().int(),
  createdAt: z.string(),
});
export type PublicRoomSummary = z.infer<typeof PublicRoomSummary>;

// ---- client (viewer) to server: event name -> request; every one has an ack (RoomAck) ---------

export const CreateRoomRequest = z.object({
  private: z.boolean().default(false),
  maxPlayers: z.number().int().min(1).max(ROOM_MAX_PLAYERS_LIMIT).optional(),
});
/** `seatToken`: rejoin after a drop (same seat while the grace period lasts). */
export const JoinRoomRequest = z.object({
  code: RoomCode,
  seatToken: z.string().max(100).optional(),
});
export const SpectateRoomRequest = z.object({ code: RoomCode });
export const RoomSendRequest = z.object({
  type: RoomName,
  data: z.json().optional(),
  /** One player's id: only that player gets it (else everyone in the room but the sender). */
  to: z.string().max(100).optional(),
});
export const RoomSetStateRequest = z.object({ key: RoomName, value: z.json() });
/** Sets `key` to `value` only if it holds `expected` now (null: the key is not set). */
export const RoomCompareAndSetRequest = z.object({
  key: RoomName,
  expected: z.json(),
  value: z.json(),
});
export const ChatSendRequest = z.object({
  text: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(CHAT_MESSAGE_MAX_LENGTH, `must be at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
});
export const ChatReportRequest = z.object({ messageId: z.string().max(100) });

export interface RoomAckError {
  ok: false;
  error: { code: string; message: string };
}
export type RoomAck<T extends object = object> = ({ ok: true } & T) | RoomAckError;
/** The answer of create, join, quickJoin and spectate. */
export type RoomEntered = RoomAck<{ room: RoomView; seat: RoomSeat }>;

export interface RoomsClientToServerEvents {
  'room:list': (
    request: Record<string, never>,
    ack: (answer: RoomAck<{ rooms: PublicRoomSummary[] }>) => void,
  ) => void;
  'room:create': (
    request: z.input<typeof CreateRoomRequest>,
    ack: (answer: RoomEntered) => void,
  ) => void;
  'room:join': (
    request: z.input<typeof JoinRoomRequest>,
    ack: (answer: RoomEntered) => void,
  ) => void;
  /** A public room with a free seat (never a private one), or a new public room. */
  'room:quickJoin': (request: Record<string, never>, ack: (answer: RoomEntered) => void) => void;
  'room:spectate': (
    request: z.input<typeof SpectateRoomRequest>,
    ack: (answer: RoomEntered) => void,
  ) => void;
  'room:leave': (request: Record<string, never>, ack: (answer: RoomAck) => void) => void;
  'room:send': (request: z.input<typeof RoomSendRequest>, ack: (answer: RoomAck) => void) => void;
  'room:setState': (
    request: z.input<typeof RoomSetStateRequest>,
    ack: (answer: RoomAck) => void,
  ) => void;
  'room:cas': (
    request: z.input<typeof RoomCompareAndSetRequest>,
    ack: (answer: RoomAck<{ swapped: boolean }>) => void,
  ) => void;
  'chat:send': (request: z.input<typeof ChatSendRequest>, ack: (answer: RoomAck) => void) => void;
  'chat:report': (
    request: z.input<typeof ChatReportRequest>,
    ack: (answer: RoomAck) => void,
  ) => void;
}

// ---- server to client ----------------------------------------------------------------------------

export interface ChatLine {
  id: string;
  from: { id: string; name: string };
  /** Plain text: shown as text, never as HTML. */
  text: string;
  at: string;
}

export type RoomLeaveReason = 'left' | 'timeout' | 'closed';

export interface RoomsServerToClientEvents {
  'room:message': (payload: { type: string; data: unknown; from: string }) => void;
  'room:join': (payload: { player: RoomPlayer }) => void;
  /** The player dropped; the seat is held until `until` (ISO time). */
  'room:away': (payload: { player: RoomPlayer; until: string }) => void;
  /** The player is back in the same seat. */
  'room:back': (payload: { player: RoomPlayer }) => void;
  'room:leave': (payload: { player: RoomPlayer; reason: RoomLeaveReason }) => void;
  'room:host': (payload: { player: RoomPlayer }) => void;
  'room:state': (payload: { key: string; value: unknown; by: string }) => void;
  /** The admin closed the room (or it was found gone on reconnect); the viewer says so. */
  'room:closed': (payload: { reason: 'admin' | 'gone' }) => void;
  'chat:message': (payload: ChatLine) => void;
  /** This player's chat status changed (muted or banned by the admin, or allowed again). */
  'chat:status': (payload: { status: ChatStatus }) => void;
}

// ---- the room service's refusals (in API_ERRORS, so HTTP and acks say the same) ----------------
// ROOM_NOT_FOUND 404, ROOM_FULL 409, ROOM_CLOSED 410, ROOMS_SIGN_IN 401, ROOM_SPECTATOR 403,
// NOT_IN_ROOM 409, ROOM_MESSAGE_TOO_LARGE 413, ROOM_STATE_FULL 409, CHAT_OFF 403, CHAT_MUTED 403,
// RATE_LIMITED 429, BAD_REQUEST 400 (a request that fails its schema: `field: message`, as the
// HTTP API's validation says it).

// ---- chat moderation (site-wide, audited) -------------------------------------------------------

/** `muted`: reads chat, cannot send; `banned`: neither. */
export const ChatStatus = z.enum(['allowed', 'muted', 'banned']);
export type ChatStatus = z.infer<typeof ChatStatus>;
/** PUT /api/admin/users/:id/chat */
export const SetChatStatusRequest = z.object({
  status: ChatStatus,
  reason: z.string().trim().max(500).optional(),
});
export type SetChatStatusRequest = z.infer<typeof SetChatStatusRequest>;

/** GET /api/admin/chat-reports */
export const ChatReport = z.object({
  id: z.string(),
  gameId: z.string(),
  roomCode: z.string(),
  message: z.object({ id: z.string(), text: z.string(), at: z.string() }),
  /** The author (a user id when signed in, else null) and their name in the room. */
  author: z.object({ userId: z.string().nullable(), name: z.string() }),
  reporter: z.object({ userId: z.string().nullable(), name: z.string() }),
  createdAt: z.string(),
});
export type ChatReport = z.infer<typeof ChatReport>;
export const ChatReportsResponse = z.object({ reports: z.array(ChatReport) });
export type ChatReportsResponse = z.infer<typeof ChatReportsResponse>;

// ---- admin: live rooms ---------------------------------------------------------------------------

/** GET /api/admin/rooms (`?gameId=` to filter): every live room on every replica. */
export const AdminRoom = z.object({
  code: z.string(),
  gameId: z.string(),
  private: z.boolean(),
  players: z.number().int(),
  spectators: z.number().int(),
  maxPlayers: z.number().int(),
  createdAt: z.string(),
});
export type AdminRoom = z.infer<typeof AdminRoom>;
export const AdminRoomsResponse = z.object({ rooms: z.array(AdminRoom) });
export type AdminRoomsResponse = z.infer<typeof AdminRoomsResponse>;
// DELETE /api/admin/rooms/:code -> 204: everyone in it gets 'room:closed' { reason: 'admin' }.

/** GET /api/games/:gameId/rooms: the lobby over HTTP (the viewer uses 'room:list'). */
export const PublicRoomsResponse = z.object({ rooms: z.array(PublicRoomSummary) });
export type PublicRoomsResponse = z.infer<typeof PublicRoomsResponse>;

// ---- the SDK (game frame) and the viewer: postMessage request type 'rooms' -----------------------

/**
 * `GameSDK.rooms.*` as requests to the viewer. The viewer answers create/join/quickJoin/spectate
 * with `{ room: RoomView, playerId }` (or `{ error }`), leave/send/setState with `{}`, cas with
 * `{ swapped }`, invited with `{ code: string | null }`. players() and getState() are answered by
 * the SDK from its own copy, kept by the events below.
 */
export type RoomsSdkRequest =
  | { op: 'create'; private?: boolean; maxPlayers?: number }
  | { op: 'join'; code: string }
  | { op: 'quickJoin' }
  | { op: 'spectate'; code: string }
  | { op: 'leave' }
  | { op: 'send'; type: string; data?: unknown; to?: string }
  | { op: 'setState'; key: string; value: unknown }
  | { op: 'cas'; key: string; expected: unknown; value: unknown }
  | { op: 'invited' };

/**
 * What the viewer pushes to the frame (`{ protocol, kind: 'room-event', event, payload }`):
 * `room` (a fresh RoomView: after entering, and after a reconnect), `message` ({ type, data,
 * from }), `join`/`leave`/`host`/`away`/`back` ({ player }), `state` ({ key, value, by }),
 * `closed` ({ reason }). In the game, `rooms.on(type, fn)` gets `message`s of that type as
 * fn(data, from), and 'join' / 'leave' / 'host' as fn(player).
 */
export type RoomsSdkEvent =
  | { event: 'room'; payload: { room: RoomView | null; playerId: string | null } }
  | { event: 'message'; payload: { type: string; data: unknown; from: string } }
  | { event: 'join' | 'leave' | 'host' | 'away' | 'back'; payload: { player: RoomPlayer } }
  | { event: 'state'; payload: { key: string; value: unknown; by: string } }
  | { event: 'closed'; payload: { reason: string } };

/** The invite link of a room: `/games?play=<gameId>&room=<code>` on the site. */
export function roomInvitePath(gameId: string, code: string): string {
  return `/games?play=${encodeURIComponent(gameId)}&room=${encodeURIComponent(code)}`;
}
