import { Router } from 'express';

import { PlayTicketRequest, type PlayTicketResponse } from '@portfolio/types';
import { MULTIPLAYER_NAMESPACES } from '@portfolio/types/multiplayer';

import { notFound } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { requireUser, sessionOf } from '../../access/policies.js';
import type { ResolveGame } from '../game-host/index.js';
import type { PlayTickets } from './play-tickets.js';

/** A viewer asks once per open and once per reconnection: far below this. */
export const PLAY_TICKET_LIMIT: RateLimitRule = { limit: 30, windowMs: 60_000 };

function isMultiplayerGameId(gameId: string): gameId is keyof typeof MULTIPLAYER_NAMESPACES {
  return Object.hasOwn(MULTIPLAYER_NAMESPACES, gameId);
}

/**
 * POST /api/play-tickets {gameId}: a signed-in player's ticket for a multiplayer game's namespace,
 * for the game's frame on the games origin (see play-tickets.ts), with the site's origin, where
 * the game connects.
 */
export function createPlayTicketRouter(deps: {
  playTickets: PlayTickets;
  rateLimiter: RateLimiter;
  publicOrigin: string | undefined;
  /** The game asked for: a published one the player may open (game-host's resolveGame). */
  resolveGame: ResolveGame;
}): Router {
  const router = Router();

  router.post('/play-tickets', requireUser, async (req, res) => {
    const session = sessionOf(req);
    await enforceRateLimit(
      deps.rateLimiter,
      `play-ticket:user:${session.user.id}`,
      PLAY_TICKET_LIMIT,
      'Too many play tickets. Please wait a minute.',
    );
    // the game comes in the body: it is read before the game can be resolved
    const { gameId } = parseInput(PlayTicketRequest, req.body);
    // only the games with a server here have tickets, whatever the catalogue holds
    if (!isMultiplayerGameId(gameId)) {
      throw notFound(`No multiplayer game with the id '${gameId}'`);
    }
    deps.resolveGame(gameId, { player: session.user.role });
    const { ticket, expiresAt } = deps.playTickets.issue({
      userId: session.user.id,
      gameId,
      sessionIdHash: session.sessionIdHash,
    });
    const siteOrigin = deps.publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set('Cache-Control', 'no-store').json({
      ticket,
      siteOrigin,
      expiresAt: new Date(expiresAt).toISOString(),
    } satisfies PlayTicketResponse);
  });

  return router;
}
