import { z } from 'zod';

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

/** POST /api/games/:gameId/session */
export const GameSessionRequest = z.object({
  action: z.enum(['start', 'ping', 'end'], { error: "must be 'start', 'ping' or 'end'" }),
});
export type GameSessionRequest = z.infer<typeof GameSessionRequest>;

/** PUT /api/games/:gameId/save: the game's data, any JSON value (null clears nothing: it is saved). */
export const GameSaveRequest = z.object({
  data: z.json({ error: 'is required (any JSON value)' }),
});
export type GameSaveRequest = z.infer<typeof GameSaveRequest>;

/** GET /api/games/:gameId/save (and the answer of PUT). */
export const GameSaveResponse = z.object({
  data: z.json(),
  updatedAt: z.string(),
});
export type GameSaveResponse = z.infer<typeof GameSaveResponse>;

/** POST /api/games/:gameId/achievements */
export const UnlockAchievementRequest = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(ACHIEVEMENT_NAME_MAX_LENGTH, `must be at most ${ACHIEVEMENT_NAME_MAX_LENGTH} characters`),
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
  hasSave: z.boolean(),
});
export type MyGameRecord = z.infer<typeof MyGameRecord>;

/** GET /api/me/games */
export const MyGamesResponse = z.object({ games: z.array(MyGameRecord) });
export type MyGamesResponse = z.infer<typeof MyGamesResponse>;

/**
 * The messages between the SDK script (/games/sdk.js, inside the game's frame) and the page that
 * hosts the game. Both sides check the other's origin and window.
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
  z.object({ ...sdkRequest, type: z.literal('save'), payload: z.object({ data: z.unknown() }) }),
  z.object({ ...sdkRequest, type: z.literal('load'), payload: z.unknown() }),
  z.object({ ...sdkRequest, type: z.literal('unlock'), payload: z.object({ name: z.string() }) }),
]);
export type GameSdkRequestMessage = z.infer<typeof GameSdkRequestMessage>;

export interface GameSdkAnswerMessage {
  protocol: typeof GAME_SDK_PROTOCOL;
  kind: 'answer';
  id: number;
  ok: boolean;
  result?: unknown;
}
