import { Router } from 'express';

import {
  decideGameAccess,
  type GameCatalogueEntry,
  type HeartbeatResponse,
  TrackGameClickRequest,
  type VisitorStatsResponse,
} from '@portfolio/types';

import { badRequest, forbidden } from '../../../lib/errors.js';
import { rateLimitAddress } from '../../../lib/client-address.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../../lib/rate-limit.js';
import { parseInput } from '../../../lib/validate.js';
import { requireAdmin } from '../../../access/policies.js';
import type { AnalyticsService } from './service.js';

/** Each click is a database write: one address may not click more than this. */
export const GAME_CLICK_LIMIT: RateLimitRule = { limit: 60, windowMs: 60_000 };

export function createAnalyticsRouter(deps: {
  analytics: AnalyticsService;
  rateLimiter: RateLimiter;
  /** A published game of the catalogue (the database's). */
  findGame: (
    gameId: string,
  ) => Pick<GameCatalogueEntry, 'id' | 'title' | 'access' | 'isMultiplayer'> | undefined;
}): Router {
  const { analytics, rateLimiter, findGame } = deps;
  const router = Router();

  router.post('/track-game-click', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `game-click:ip:${rateLimitAddress(req.ip)}`,
      GAME_CLICK_LIMIT,
      'Too many game clicks. Please slow down.',
    );
    const { gameId } = parseInput(TrackGameClickRequest, req.body);
    const game = findGame(gameId);
    if (!game) {
      throw badRequest('gameId: Unknown game');
    }
    // only a click that opens the game counts: the counts cannot be inflated through the API
    if (!decideGameAccess(game, req.auth?.user.role ?? null).allowed) {
      throw forbidden(`Only players who may open ${game.title} can click it`);
    }
    await analytics.recordGameClick(gameId, req.auth !== undefined);
    res.json({ ok: true } satisfies HeartbeatResponse);
  });

  router.get('/visitor-stats', requireAdmin, async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json((await analytics.getVisitorStats()) satisfies VisitorStatsResponse);
  });

  return router;
}
