import { z } from 'zod';

import type { Role } from './auth.js';

export const GameAccess = z.enum(['public', 'subscriber']);
export type GameAccess = z.infer<typeof GameAccess>;

export const GameEngine = z.enum(['multiplayer', 'gamemaker', 'godot']);
export type GameEngine = z.infer<typeof GameEngine>;

export const GameCatalogueEntry = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnail: z.string(),
  path: z.string(),
  instructions: z.string(),
  isMultiplayer: z.boolean(),
  serverType: z.string().optional(),
  access: GameAccess,
  engine: GameEngine,
});
export type GameCatalogueEntry = z.infer<typeof GameCatalogueEntry>;

/** The built-in game catalogue (spec section 3). Games live under /games/<id>/. */
export const GAME_CATALOGUE: readonly GameCatalogueEntry[] = [
  {
    id: 'WolfScape',
    title: 'WolfScape',
    description:
      'An online multiplayer browser game where everyone who is signed in roams the same shared world in real time.',
    thumbnail: '/assets/games/wolfscape.svg',
    path: '/games/WolfScape/',
    instructions: 'Click.',
    isMultiplayer: true,
    serverType: 'wolfscape',
    access: 'public',
    engine: 'multiplayer',
  },
  {
    id: 'RocketGame',
    title: 'Rocket Game',
    description:
      'Pilot a rocket through an online arena and out-fly and out-shoot the other players in real time.',
    thumbnail: '/assets/games/rocketgame.svg',
    path: '/games/RocketGame/',
    instructions: 'A/D rotate, W flies forward, Space shoots, I/O or the mouse wheel zoom.',
    isMultiplayer: true,
    serverType: 'rocketGame',
    access: 'public',
    engine: 'multiplayer',
  },
  {
    id: 'TopDownRogueLike',
    title: 'TopDown RogueLike',
    description:
      'A top-down dungeon crawler: fight through rooms of monsters and beat the boss waiting at the end.',
    thumbnail: '/assets/games/topdownroguelike.svg',
    path: '/games/TopDownRogueLike/',
    instructions: 'WASD to move, left-click to attack. Explore the dungeon and beat the boss.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'MainQuest2',
    title: 'Android Mobile Game',
    description:
      'A platformer made for Android phones: run, jump, collect coins and avoid the obstacles.',
    thumbnail: '/assets/games/mainquest2.svg',
    path: '/games/MainQuest2/',
    instructions:
      'Arrow keys to move, Space to jump. Collect coins and avoid obstacles. On a phone, use the touch controls on screen.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'CoopAdventure',
    title: 'Co-op Adventure',
    description:
      'A puzzle action game for two players on one keyboard that you only get through together.',
    thumbnail: '/assets/games/coopadventure.svg',
    path: '/games/CoopAdventure/',
    instructions:
      'Same-keyboard co-op: one player uses WASD, the other the arrow keys. Solve the puzzles together.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'CompMultiplayerUCCS',
    title: 'Competitive Multiplayer',
    description: 'A dogfight for two planes on one keyboard: the last pilot flying wins the round.',
    thumbnail: '/assets/games/compmultiplayeruccs.svg',
    path: '/games/CompMultiplayerUCCS/',
    instructions:
      'Two planes on one keyboard: WASD + left Ctrl against the arrow keys + right Ctrl.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'Pong',
    title: 'Pong',
    description:
      'The arcade classic for two players on one keyboard, with your high score kept in your account.',
    thumbnail: '/assets/games/pong.svg',
    path: '/games/Pong/',
    instructions: 'W/S move the left paddle, the arrow keys the right paddle.',
    isMultiplayer: false,
    access: 'subscriber',
    engine: 'godot',
  },
];

export const GAME_IDS = GAME_CATALOGUE.map((game) => game.id);

export function findGame(gameId: string): GameCatalogueEntry | undefined {
  return GAME_CATALOGUE.find((game) => game.id === gameId);
}

export type GameAccessDecision =
  | { allowed: true }
  | { allowed: false; reason: 'login'; redirectTo: string; notice: 'Login to Play' }
  | {
      allowed: false;
      reason: 'subscribe';
      redirectTo: string;
      notice: 'Subscribe to Play' | 'Login to Play';
    };

/**
 * The spec's game-access rules (section 6), shared by the web app and the server:
 * public single-player games are open to all, multiplayer needs any signed-in user,
 * subscriber games need the subscriber or admin role.
 */
export function decideGameAccess(
  game: Pick<GameCatalogueEntry, 'id' | 'access' | 'isMultiplayer'>,
  role: Role | null,
): GameAccessDecision {
  if (game.access === 'subscriber') {
    if (role === 'subscriber' || role === 'admin') {
      return { allowed: true };
    }
    if (role === null) {
      return {
        allowed: false,
        reason: 'subscribe',
        redirectTo: '/login?redirect=/subscribe',
        notice: 'Login to Play',
      };
    }
    return {
      allowed: false,
      reason: 'subscribe',
      redirectTo: '/subscribe',
      notice: 'Subscribe to Play',
    };
  }
  if (game.isMultiplayer && role === null) {
    // after signing in (or registering first), the player lands in the game they clicked
    const play = `/games?play=${encodeURIComponent(game.id)}`;
    return {
      allowed: false,
      reason: 'login',
      redirectTo: `/login?redirect=${encodeURIComponent(play)}`,
      notice: 'Login to Play',
    };
  }
  return { allowed: true };
}
