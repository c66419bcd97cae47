import { z } from 'zod';

import type { ApiErrorCode } from './errors.js';
import { GameAccess } from './games.js';
import { GameRoomSettings } from './rooms.js';

/*
 * The game host's contracts: the catalogue the web app reads from the server, the
 * admin's games section, builds and their versions. Games are served from another site than the
 * site's (GAMES_ORIGIN, or on the embedded default a second port of the same process under the
 * other loopback name).
 */

/** A game's id: its folder and URL segment. Letters, digits, '_' and '-', 1 to 64 characters. */
export const GameId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be 1 to 64 letters, digits, _ or -');
export type GameId = z.infer<typeof GameId>;

/** Where a card is listed on /games. `html5` ("Other HTML5 Games") shows only when it has games. */
export const GAME_SECTIONS = ['multiplayer', 'gamemaker', 'godot', 'html5'] as const;
export const GameSection = z.enum(GAME_SECTIONS);
export type GameSection = z.infer<typeof GameSection>;

/** What the host found in an uploaded build. */
export const BUILD_ENGINES = ['gamemaker', 'godot3', 'godot4', 'unity', 'html5'] as const;
export const BuildEngine = z.enum(BUILD_ENGINES);
export type BuildEngine = z.infer<typeof BuildEngine>;

/*
 * How a game wants to be shown, set per game by the admin.
 */

/** A game's own size in CSS pixels (a side of a fixed canvas, or of an aspect ratio). */
const FrameSide = z.number().int().min(1, 'must be 1 or more').max(8192, 'must be 8192 or less');

/**
 * The frame's size: `default` is the spec's frame (100% wide, 800 px high, fitted to the window
 * where that does not fit); `fixed` is a game that draws at exactly width × height (the frame
 * gets that size and is scaled to fit, never cut); `aspect` is a game that fills whatever frame
 * it gets but wants this shape (the frame keeps width : height).
 */
export const GameFrameSize = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('default') }),
  z.object({ mode: z.literal('fixed'), width: FrameSide, height: FrameSide }),
  z.object({ mode: z.literal('aspect'), width: FrameSide, height: FrameSide }),
]);
export type GameFrameSize = z.infer<typeof GameFrameSize>;
export const GAME_FRAME_MODES = ['default', 'fixed', 'aspect'] as const;
export type GameFrameMode = (typeof GAME_FRAME_MODES)[number];

/** Whether a game can be played on a touch screen, or needs a keyboard. */
export const GAME_TOUCH_SUPPORT = ['playable', 'keyboard-only'] as const;
export const GameTouchSupport = z.enum(GAME_TOUCH_SUPPORT);
export type GameTouchSupport = z.infer<typeof GameTouchSupport>;

/** The orientation a game wants on a phone (its fullscreen play locks it where browsers allow). */
export const GAME_ORIENTATIONS = ['any', 'landscape', 'portrait'] as const;
export const GameOrientation = z.enum(GAME_ORIENTATIONS);
export type GameOrientation = z.infer<typeof GameOrientation>;

/** The three together, as GET /api/games and the admin's bodies carry them. */
const GameDisplay = {
  frame: GameFrameSize,
  touch: GameTouchSupport,
  orientation: GameOrientation,
};

/**
 * One entry of `GET /api/games`: everything a card and the viewer need. `playUrl` is the
 * absolute URL of the live version's start page on the games origin (null while no build is
 * live); for a subscriber game and a viewer allowed to play it, it carries a short-lived signed
 * access grant. `needsIsolation`: the live build uses threads, so the viewer must be
 * cross-origin isolated.
 */
export const GameEntry = z.object({
  id: GameId,
  title: z.string(),
  description: z.string(),
  /** Image URL (the site's own path, or the games origin's for an uploaded thumbnail). */
  thumbnail: z.string(),
  instructions: z.string(),
  section: GameSection,
  access: GameAccess,
  isMultiplayer: z.boolean(),
  /** Multiplayer games only: the server type of `GET /api/game-status`. */
  serverType: z.string().optional(),
  playUrl: z.string().nullable(),
  needsIsolation: z.boolean(),
  /** The live version's number, null while none is live. */
  version: z.number().int().positive().nullable(),
  ...GameDisplay,
});
export type GameEntry = z.infer<typeof GameEntry>;

/** `GET /api/games`: the published games in the admin's order. */
export const GamesResponse = z.object({ games: z.array(GameEntry) });
export type GamesResponse = z.infer<typeof GamesResponse>;

/** One uploaded build of a game: every upload is a new version. */
export const GameBuild = z.object({
  version: z.number().int().positive(),
  engine: BuildEngine,
  /** The start page, relative to the build's root (e.g. `index.html`, `Game/index.html`). */
  entry: z.string(),
  needsThreads: z.boolean(),
  files: z.number().int().nonnegative(),
  /** Total size of the unpacked files. */
  bytes: z.number().int().nonnegative(),
  /** What a browser downloads: brotli where the host made (or the build shipped) it. */
  compressedBytes: z.number().int().nonnegative(),
  /**
   * Files of the zip left out of the published build because no browser needs them: desktop
   * executables and libraries (`Game.exe`, `.dll`, `.pdb`, `.so`, a `Game.app/` bundle) and
   * strays (`.DS_Store`, `__MACOSX/`); a left-out folder is listed once, with its slash.
   */
  leftOut: z.array(z.string()),
  uploadedAt: z.string(),
  uploadedBy: z.string(),
  isLive: z.boolean(),
});
export type GameBuild = z.infer<typeof GameBuild>;

/** A game as the admin's Games section sees it: published or not, with every version. */
export const AdminGame = GameEntry.extend({
  published: z.boolean(),
  order: z.number().int(),
  builds: z.array(GameBuild),
  /** Built-in games (the spec's catalogue) cannot be deleted, only unpublished. */
  isBuiltIn: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Rooms for this game (issue 38); the server always sends it (defaults when never set). */
  rooms: GameRoomSettings.optional(),
});
export type AdminGame = z.infer<typeof AdminGame>;

/** `GET /api/admin/games`. */
export const AdminGamesResponse = z.object({ games: z.array(AdminGame) });
export type AdminGamesResponse = z.infer<typeof AdminGamesResponse>;

const GameText = {
  title: z.string().trim().min(1, 'is required').max(80, 'is too long'),
  description: z.string().trim().max(500, 'is too long'),
  instructions: z.string().trim().max(2000, 'is too long'),
};

/** `POST /api/admin/games` (201), `PATCH /api/admin/games/:id` and `PUT …/thumbnail` (200). */
export const AdminGameResponse = z.object({ game: AdminGame });
export type AdminGameResponse = z.infer<typeof AdminGameResponse>;

/** `POST /api/admin/games`: a new, unpublished game without a build. */
export const CreateGameRequest = z.object({
  id: GameId,
  ...GameText,
  section: GameSection,
  access: GameAccess,
  order: z.number().int().min(0).max(10_000).optional(),
  ...z.object(GameDisplay).partial().shape,
});
export type CreateGameRequest = z.infer<typeof CreateGameRequest>;

/**
 * `PATCH /api/admin/games/:id`: any of the fields (the frame's size, touch support and orientation
 * too), publish and unpublish.
 */
export const UpdateGameRequest = z
  .object({
    ...GameText,
    section: GameSection,
    access: GameAccess,
    order: z.number().int().min(0).max(10_000),
    published: z.boolean(),
    ...GameDisplay,
  })
  .partial();
export type UpdateGameRequest = z.infer<typeof UpdateGameRequest>;

/**
 * `PUT /api/admin/games/:id/build` (body: the zip, `Content-Type: application/zip`; query
 * `activate=false` keeps the live version, default true) answers 201 with this.
 */
export const GameBuildResponse = z.object({ game: AdminGame, build: GameBuild });
export type GameBuildResponse = z.infer<typeof GameBuildResponse>;

/** An admin API token for build scripts (`Authorization: Bearer <token>`). */
export const AdminToken = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AdminToken = z.infer<typeof AdminToken>;

export const CreateAdminTokenRequest = z.object({
  name: z.string().trim().min(1, 'is required').max(60, 'is too long'),
});
export type CreateAdminTokenRequest = z.infer<typeof CreateAdminTokenRequest>;

/** The token itself is shown once, in this answer; only its hash is stored. */
export const CreateAdminTokenResponse = AdminToken.extend({ token: z.string() });
export type CreateAdminTokenResponse = z.infer<typeof CreateAdminTokenResponse>;

/** `GET /api/admin/tokens`. */
export const AdminTokensResponse = z.object({ tokens: z.array(AdminToken) });
export type AdminTokensResponse = z.infer<typeof AdminTokensResponse>;

/** What the game audit log records (every change to the catalogue, its builds and tokens). */
export const GAME_AUDIT_ACTIONS = [
  'game-create',
  'game-update',
  'game-delete',
  'build-upload',
  'build-activate',
  'build-delete',
  'thumbnail-upload',
  'token-create',
  'token-delete',
  'leaderboard-save',
  'leaderboard-delete',
  'score-remove',
  'player-ban',
  'player-unban',
  'achievement-save',
  'achievement-delete',
  'achievement-icon',
  // rooms (issue 38): a game's room settings, a live room closed by the admin
  'rooms-settings',
  'room-close',
] as const;
export const GameAuditAction = z.enum(GAME_AUDIT_ACTIONS);
export type GameAuditAction = z.infer<typeof GameAuditAction>;

/** One entry of the game audit log. */
export const GameAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  action: GameAuditAction,
  actorUsername: z.string(),
  gameId: z.string().nullable(),
  /** What changed, as sentences ('Published', 'Renamed from X to Y', 'Version 3 made live'). */
  detail: z.string(),
});
export type GameAuditEntry = z.infer<typeof GameAuditEntry>;

/** `GET /api/admin/games/audit?gameId=…`: newest first (the last 100). */
export const GameAuditResponse = z.object({ entries: z.array(GameAuditEntry) });
export type GameAuditResponse = z.infer<typeof GameAuditResponse>;

/**
 * The codes of a refused build upload (4xx, nothing live changed): `NOT_A_ZIP`, `NO_START_PAGE`,
 * `UNSAFE_PATH` (`../`, absolute), `SYMLINK`, `ZIP_BOMB` (ratio or total unpacked size),
 * `TOO_MANY_FILES`, `PAYLOAD_TOO_LARGE` (413, over GAME_UPLOAD_MAX_BYTES), `BAD_ZIP` (an
 * entry's bytes do not match its CRC-32).
 */
export const BUILD_REFUSAL_CODES = [
  'NOT_A_ZIP',
  'BAD_ZIP',
  'NO_START_PAGE',
  'UNSAFE_PATH',
  'SYMLINK',
  'ZIP_BOMB',
  'TOO_MANY_FILES',
  'PAYLOAD_TOO_LARGE',
] as const satisfies readonly ApiErrorCode[];
export type BuildRefusalCode = (typeof BUILD_REFUSAL_CODES)[number];
