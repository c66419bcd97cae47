import { z } from 'zod';

/**
 * Wire contracts of the live multiplayer games (Socket.IO namespaces `/play/WolfScape` and
 * `/play/RocketGame`). Clients send input only (`move` in WolfScape, `input` in Rocket Game); the
 * server owns the state and sends `welcome` (WolfWelcome, RocketWelcome) to a newcomer and `u`
 * (WolfUpdate, RocketUpdate) to a room. State travels as quantised integers in flat arrays, and
 * only what changed since the last broadcast.
 *
 * There are no Socket.IO event maps for these namespaces: both are served by one generic game
 * server (modules/multiplayer/game-server.ts), where Socket.IO's typed emit cannot check a
 * generic payload without casts, and the games' clients are plain scripts. The payload types are
 * what each simulation returns, so a changed payload is a compile error there.
 */

/**
 * Why a handshake was refused (the `data` of the `connect_error`): `UNAUTHORIZED` (no session, or
 * a page on the games origin without a play ticket) or `INVALID_TICKET` (forged, expired, or for
 * another game).
 */
export const PlayRefusal = z.object({ code: z.string(), message: z.string() });
export type PlayRefusal = z.infer<typeof PlayRefusal>;

export const MULTIPLAYER_NAMESPACES = {
  WolfScape: '/play/WolfScape',
  RocketGame: '/play/RocketGame',
} as const;

// ---- WolfScape ----------------------------------------------------------------------------------

/** Map size in tiles; tiles are '0' grass, '1' tree, '2' rock, '3' water (only grass is walkable). */
export const WOLFSCAPE_MAP = { width: 48, height: 32 } as const;
/** Walking speed in tiles per second. */
export const WOLFSCAPE_SPEED = 4;
/** Positions on the wire are tenths of a tile. */
export const WOLFSCAPE_UNIT = 10;

/** A click: walk to this tile. */
export const WolfMoveInput = z.object({
  x: z
    .number()
    .int()
    .min(0)
    .max(WOLFSCAPE_MAP.width - 1),
  y: z
    .number()
    .int()
    .min(0)
    .max(WOLFSCAPE_MAP.height - 1),
});
export type WolfMoveInput = z.infer<typeof WolfMoveInput>;

/** [id, name, x, y, colour] with x/y in tenths of a tile. */
export type WolfEntry = [number, string, number, number, number];

export interface WolfWelcome {
  room: string;
  you: number;
  /** width × height tile codes, row by row. */
  map: string;
  wolves: WolfEntry[];
  /** Paths in progress, as in WolfUpdate.p. */
  paths: number[][];
}

/**
 * One broadcast: `p` new paths, each [id, startX, startY, tileX, tileY, tileX, tileY, …] (start in
 * tenths of a tile, then the tiles to walk through; clients walk them at WOLFSCAPE_SPEED from now);
 * `j` wolves that joined; `l` ids that left.
 */
export interface WolfUpdate {
  p?: number[][];
  j?: WolfEntry[];
  l?: number[];
}

// ---- Rocket Game --------------------------------------------------------------------------------

export const ROCKET_WORLD = { width: 2400, height: 1600 } as const;
/** Angles on the wire: 0..63 for one turn. */
export const ROCKET_ANGLE_STEPS = 64;
/** Shots fly this fast (units per second) for this long (seconds); clients draw them the same. */
export const ROCKET_SHOT = { speed: 700, life: 1.2 } as const;

/** Held keys as bits: 1 left (A), 2 right (D), 4 forward (W), 8 shoot (Space). */
export const RocketInput = z.number().int().min(0).max(15);
export type RocketInput = z.infer<typeof RocketInput>;
export const ROCKET_KEYS = { left: 1, right: 2, forward: 4, shoot: 8 } as const;

/** [id, name, x, y, angle, score, colour]. */
export type RocketEntry = [number, string, number, number, number, number, number];

export interface RocketWelcome {
  room: string;
  you: number;
  world: { width: number; height: number };
  rockets: RocketEntry[];
}

/**
 * One broadcast: `m` rockets that moved, flat [id, x, y, angle, flags, …] (flags: 1 = thrusting);
 * `s` shots fired, flat [shotId, x, y, angle, …]; `h` hits, flat [shotId, shooterId, targetId,
 * shooterScore, …] (the target respawns; its next position comes in `m`); `j` joined; `l` left.
 */
export interface RocketUpdate {
  m?: number[];
  s?: number[];
  h?: number[];
  j?: RocketEntry[];
  l?: number[];
}
