import { z } from 'zod';

import {
  LeaderboardKey,
  LeaderboardQuery,
  ProgressTime,
  SubmitScoreRequest,
} from './leaderboards.js';

/** How often a running game pings its play session (the SDK's interval), in seconds. */
export const GAME_SESSION_PING_SECONDS = 30;
/**
 * The most playtime one gap between two session calls may add: one ping interval, so a tab that
 * vanishes without ending its session adds at most that.
 */
export const GAME_SESSION_MAX_GAP_SECONDS = GAME_SESSION_PING_SECONDS;
/** The largest save a game may keep (its data as JSON, in bytes). */
export const GAME_SAVE_MAX_BYTES = 64 * 1024;
export const ACHIEVEMENT_NAME_MAX_LENGTH = 100;
/** Distinct achievements one player may hold in one game (a bound on what a script can store). */
export const ACHIEVEMENTS_PER_GAME_MAX = 200;

/** Save slots per game and player: 0 is the one save games had before slots. */
export const GAME_SAVE_SLOTS = 10;
export const SaveSlot = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be at least 0')
  .max(GAME_SAVE_SLOTS - 1, `must be at most ${GAME_SAVE_SLOTS - 1}`);

/** One slot that holds a save (`GameSDK.slots()`, `GET /api/games/:gameId/saves`). */
export const SaveSlotSummary = z.object({ slot: z.number().int(), updatedAt: z.string() });
export type SaveSlotSummary = z.infer<typeof SaveSlotSummary>;

/** `GET /api/games/:gameId/saves` */
export const SaveSlotsResponse = z.object({ slots: z.array(SaveSlotSummary) });
export type SaveSlotsResponse = z.infer<typeof SaveSlotsResponse>;

/** POST /api/games/:gameId/session */
export const GameSessionRequest = z.object({
  action: z.enum(['start', 'ping', 'end'], { error: "must be 'start', 'ping' or 'end'" }),
});
export type GameSessionRequest = z.infer<typeof GameSessionRequest>;

/** PUT /api/games/:gameId/save: the game's data, any JSON value (null clears nothing: it is saved). */
export const GameSaveRequest = z.object({
  data: z.json({ error: 'is required (any JSON value)' }),
  /** When it was saved, if before now (a guest's save kept in the account); else now. */
  updatedAt: ProgressTime.optional(),
});
export type GameSaveRequest = z.infer<typeof GameSaveRequest>;

/**
 * GET /api/games/:gameId/save (and the answer of PUT). A player with no save yet gets
 * `{ data: null, updatedAt: null }`: having none is not an error.
 */
export const GameSaveResponse = z.object({
  data: z.json(),
  updatedAt: z.string().nullable(),
});
export type GameSaveResponse = z.infer<typeof GameSaveResponse>;

/** POST /api/games/:gameId/achievements */
export const UnlockAchievementRequest = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(ACHIEVEMENT_NAME_MAX_LENGTH, `must be at most ${ACHIEVEMENT_NAME_MAX_LENGTH} characters`),
  /**
   * When it was unlocked, if before now (a guest's unlock kept in the account): an earlier time
   * than the account's own unlock of it replaces that one, the first unlock being kept.
   */
  unlockedAt: ProgressTime.optional(),
});
export type UnlockAchievementRequest = z.infer<typeof UnlockAchievementRequest>;

export const UnlockedAchievement = z.object({
  name: z.string(),
  unlockedAt: z.string(),
});
export type UnlockedAchievement = z.infer<typeof UnlockedAchievement>;

/** One game's records for the signed-in player. */
export const MyGameRecord = z.object({
  gameId: z.string(),
  title: z.string(),
  playtimeSeconds: z.number().int().nonnegative(),
  lastPlayed: z.string().nullable(),
  achievements: z.array(UnlockedAchievement),
  /** A save in any slot. */
  hasSave: z.boolean(),
});
export type MyGameRecord = z.infer<typeof MyGameRecord>;

/** GET /api/me/games */
export const MyGamesResponse = z.object({ games: z.array(MyGameRecord) });
export type MyGamesResponse = z.infer<typeof MyGamesResponse>;

/** How long a play ticket is valid, in seconds: long enough to connect, too short to keep. */
export const PLAY_TICKET_TTL_SECONDS = 60;

/**
 * POST /api/play-tickets: a signed-in player asks for a ticket to join a multiplayer game from a
 * page on the games origin, which has no session cookie.
 */
export const PlayTicketRequest = z.object({
  gameId: z
    .string({ error: 'is required' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a game id'),
});
export type PlayTicketRequest = z.infer<typeof PlayTicketRequest>;

/**
 * The answer: an opaque ticket for the game's Socket.IO namespace (`auth: { ticket }`) and the
 * site's origin, where that namespace and /socket.io/socket.io.js are.
 */
export const PlayTicketResponse = z.object({
  ticket: z.string(),
  siteOrigin: z.string(),
  /** When the ticket stops being accepted (ISO time): ask for a new one to reconnect. */
  expiresAt: z.string(),
});
export type PlayTicketResponse = z.infer<typeof PlayTicketResponse>;

/**
 * The messages between the SDK script (sdk.js, inside the game's frame on the games origin) and
 * the page that hosts the game (the site's viewer). Both sides check the other's origin and
 * window: the SDK talks only to its parent on the embedder's origin, the viewer only to its own
 * frame on the games origin.
 */
export const GAME_SDK_PROTOCOL = 'portfolio-game-sdk';

/** What every request from the SDK carries: the protocol's name and an id its answer repeats. */
const sdkRequest = {
  protocol: z.literal(GAME_SDK_PROTOCOL),
  kind: z.literal('request'),
  id: z.number().int(),
};

export const GameSdkRequestMessage = z.discriminatedUnion('type', [
  z.object({ ...sdkRequest, type: z.literal('session'), payload: GameSessionRequest }),
  z.object({
    ...sdkRequest,
    type: z.literal('save'),
    payload: z.object({ data: z.unknown(), slot: SaveSlot.optional() }),
  }),
  z.object({
    ...sdkRequest,
    type: z.literal('load'),
    payload: z.object({ slot: SaveSlot.optional() }).catch({}),
  }),
  /** The slots that hold a save: answered with SaveSlotSummary[]. */
  z.object({ ...sdkRequest, type: z.literal('slots'), payload: z.unknown() }),
  z.object({ ...sdkRequest, type: z.literal('unlock'), payload: z.object({ name: z.string() }) }),
  /** A score on a board: answered with a SubmitScoreResponse (or, refused, { error }). */
  // a game reports a score as it happens: only a guest's kept progress names an earlier time
  z.object({
    ...sdkRequest,
    type: z.literal('score'),
    payload: SubmitScoreRequest.omit({ achievedAt: true }),
  }),
  /** A board: answered with a LeaderboardResponse (guests too). */
  z.object({
    ...sdkRequest,
    type: z.literal('leaderboard'),
    payload: LeaderboardQuery.extend({ board: LeaderboardKey }),
  }),
  /** A play ticket for the open game (multiplayer); answered with a PlayTicketResponse. */
  z.object({ ...sdkRequest, type: z.literal('ticket'), payload: z.unknown() }),
  /** A room request (`GameSDK.rooms`, RoomsSdkRequest in rooms.ts, read by the viewer's room client). */
  z.object({ ...sdkRequest, type: z.literal('rooms'), payload: z.unknown() }),
]);
export type GameSdkRequestMessage = z.infer<typeof GameSdkRequestMessage>;

/**
 * A fresh grant for the open subscriber game, sent by the viewer to its frame every
 * minute: the SDK swaps it into the frame's address (`/g/<grant>/…`, history.replaceState), so
 * the game's later requests and its own reloads carry a grant that is still good.
 */
export interface GameSdkGrantMessage {
  protocol: typeof GAME_SDK_PROTOCOL;
  kind: 'grant';
  grant: string;
}

/** A grant as the games origin reads it (`<expires, base36>.<MAC>`, grants.ts on the server). */
export const GAME_GRANT_PATTERN = /^[0-9a-z]{1,11}\.[\w-]{1,64}$/;

/** What happens in the game's room, pushed by the viewer to its frame (RoomsSdkEvent in rooms.ts). */
export interface GameSdkRoomEventMessage {
  protocol: typeof GAME_SDK_PROTOCOL;
  kind: 'room-event';
  event: string;
  payload: unknown;
}

export interface GameSdkAnswerMessage {
  protocol: typeof GAME_SDK_PROTOCOL;
  kind: 'answer';
  id: number;
  ok: boolean;
  result?: unknown;
}
