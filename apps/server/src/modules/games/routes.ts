import { type Request, Router } from 'express';

import {
  GameSaveRequest,
  type GameSaveResponse,
  GameSessionRequest,
  type GameCatalogueEntry,
  type MyGamesResponse,
  type UnlockedAchievement,
  UnlockAchievementRequest,
  SaveSlot,
  type SaveSlotsResponse,
} from '@portfolio/types';
import { z } from 'zod';

import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { requireUser, sessionOf } from '../../access/policies.js';
import type { ResolveGame } from '../game-host/index.js';
import type { GamesService } from './service.js';

/** `?slot=` of a save (0, the save games had before slots, by default). */
const SlotQuery = z.object({ slot: z.coerce.number().pipe(SaveSlot).default(0) });

/** SDK writes per player: a ping every 30 s plus saves and unlocks stay far below this. */
export const GAME_SDK_WRITE_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

/** The fields of a game the SDK's API checks. */
export type SdkGame = Pick<GameCatalogueEntry, 'id' | 'title' | 'access' | 'isMultiplayer'>;

/** The game SDK's API: play sessions, saves, achievements, and the player's own records. */
export function createGamesRouter(deps: {
  games: GamesService;
  rateLimiter: RateLimiter;
  /** The game of the path: a published one the player may open (game-host's resolveGame). */
  resolveGame: ResolveGame;
  /** Refuses a name the game's achievement catalogue does not define (when it has one). */
  checkUnlock?: (gameId: string, name: string) => Promise<void>;
}): Router {
  const { games, rateLimiter, resolveGame } = deps;
  const router = Router();

  /** The signed-in player and the game of the path: 404 for an unknown game, 403 without access. */
  const playerAndGame = (req: Request): { userId: string; game: SdkGame } => {
    const { user } = sessionOf(req);
    return { userId: user.id, game: resolveGame(req.params.gameId, { player: user.role }) };
  };

  /** A write's rate limit, taken before anything else of the request is looked at. */
  const limitWrites = (req: Request) =>
    enforceRateLimit(
      rateLimiter,
      `game-sdk:user:${sessionOf(req).user.id}`,
      GAME_SDK_WRITE_LIMIT,
      'Too many game updates. Please slow down.',
    );

  router.post('/games/:gameId/session', requireUser, async (req, res) => {
    await limitWrites(req);
    const { userId, game } = playerAndGame(req);
    const { action } = parseInput(GameSessionRequest, req.body);
    await games.recordSession(userId, game.id, action);
    res.status(204).end();
  });

  router.get('/games/:gameId/save', requireUser, async (req, res) => {
    const { userId, game } = playerAndGame(req);
    const { slot } = parseInput(SlotQuery, req.query);
    res
      .set('Cache-Control', 'no-store')
      .json((await games.loadSave(userId, game.id, slot)) satisfies GameSaveResponse);
  });

  router.put('/games/:gameId/save', requireUser, async (req, res) => {
    await limitWrites(req);
    const { userId, game } = playerAndGame(req);
    const { slot } = parseInput(SlotQuery, req.query);
    const { data, updatedAt } = parseInput(GameSaveRequest, req.body);
    res.json(
      (await games.writeSave(userId, game.id, data, slot, updatedAt)) satisfies GameSaveResponse,
    );
  });

  router.get('/games/:gameId/saves', requireUser, async (req, res) => {
    const { userId, game } = playerAndGame(req);
    res
      .set('Cache-Control', 'no-store')
      .json({ slots: await games.listSlots(userId, game.id) } satisfies SaveSlotsResponse);
  });

  router.post('/games/:gameId/achievements', requireUser, async (req, res) => {
    await limitWrites(req);
    const { userId, game } = playerAndGame(req);
    const { name, unlockedAt } = parseInput(UnlockAchievementRequest, req.body);
    await deps.checkUnlock?.(game.id, name);
    const { created, ...achievement } = await games.unlock(userId, game.id, name, unlockedAt);
    res.status(created ? 201 : 200).json(achievement satisfies UnlockedAchievement);
  });

  router.get('/me/games', requireUser, async (req, res) => {
    const { user } = sessionOf(req);
    res
      .set('Cache-Control', 'no-store')
      .json({ games: await games.listForUser(user.id) } satisfies MyGamesResponse);
  });

  return router;
}
