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
    description: 'A multiplayer survival adventure: explore the wilds with other players.',
    thumbnail: '/assets/games/wolfscape.svg',
    path: '/games/WolfScape/',
    instructions:
      'Move with WASD or the arrow keys. Click to interact. Team up with other players.',
    isMultiplayer: true,
    serverType: 'wolfscape',
    access: 'public',
    engine: 'multiplayer',
  },
  {
    id: 'RocketGame',
    title: 'Rocket Game',
    description: 'Race rockets against other players in real time.',
    thumbnail: '/assets/games/rocketgame.svg',
    path: '/games/RocketGame/',
    instructions: 'Thrust with W or the up arrow, steer with A/D. First to the finish wins.',
    isMultiplayer: true,
    serverType: 'rocketGame',
    access: 'public',
    engine: 'multiplayer',
  },
  {
    id: 'TopDownRogueLike',
    title: 'Top Down Rogue-Like',
    description: 'Fight through procedurally generated dungeons.',
    thumbnail: '/assets/games/topdownroguelike.svg',
    path: '/games/TopDownRogueLike/',
    instructions:
      'Move with WASD, aim with the mouse, shoot with the left button. F10 toggles fullscreen.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'MainQuest2',
    title: 'MainQuest2 (Android Mobile Game)',
    description: 'A mobile adventure built for Android, playable in the browser.',
    thumbnail: '/assets/games/mainquest2.svg',
    path: '/games/MainQuest2/',
    instructions: 'Tap or click to move and interact. F10 toggles fullscreen.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'CoopAdventure',
    title: 'Coop Adventure',
    description: 'A cooperative puzzle adventure.',
    thumbnail: '/assets/games/coopadventure.svg',
    path: '/games/CoopAdventure/',
    instructions:
      'Player one: WASD. Player two: arrow keys. Solve the puzzles together. F10 toggles fullscreen.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'CompMultiplayerUCCS',
    title: 'Competitive Multiplayer (UCCS)',
    description: 'A local competitive arena game.',
    thumbnail: '/assets/games/compmultiplayeruccs.svg',
    path: '/games/CompMultiplayerUCCS/',
    instructions:
      'Player one: WASD and Space. Player two: arrow keys and Enter. F10 toggles fullscreen.',
    isMultiplayer: false,
    access: 'public',
    engine: 'gamemaker',
  },
  {
    id: 'Pong',
    title: 'Pong',
    description: 'The classic, rebuilt in Godot.',
    thumbnail: '/assets/games/pong.svg',
    path: '/games/Pong/',
    instructions: 'Left paddle: W and S. Right paddle: up and down arrows.',
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
  game: Pick<GameCatalogueEntry, 'access' | 'isMultiplayer'>,
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
    return { allowed: false, reason: 'login', redirectTo: '/login', notice: 'Login to Play' };
  }
  return { allowed: true };
}
