import { type RequestHandler, Router } from 'express';
import { z } from 'zod';

import { UserId } from '@portfolio/types';
import {
  type AdminRoomsResponse,
  type ChatReportsResponse,
  GameRoomSettings,
  type PublicRoomsResponse,
  RoomCode,
  SetChatStatusRequest,
} from '@portfolio/types/rooms';
import { GameId } from '@portfolio/types/game-host';

import { rateLimitAddress } from '../../lib/client-address.js';
import { HttpError, userNotFound } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { actorOf } from '../../access/admin-guard.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import type { ResolveGame } from '../game-host/index.js';
import type { RoomService } from './service.js';

/*
 * Rooms over HTTP (the play itself is the /rooms socket namespace):
 *
 *   GET    /api/games/:gameId/rooms           a game's public rooms (the lobby)
 *   PUT    /api/admin/games/:id/rooms         a game's room settings (GameRoomSettings; audited)
 *   GET    /api/admin/rooms[?gameId=]         every live room on every replica
 *   DELETE /api/admin/rooms/:code             close a room (204; audited)
 *   PUT    /api/admin/users/:userId/chat      mute, ban or allow a user in chat (audited)
 *   GET    /api/admin/chat-reports            reported chat lines, newest first
 */

/** Lobby reads per signed-in user or client address. */
export const LOBBY_READ_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

const RoomsQuery = z.object({ gameId: GameId.optional() });

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

export function createRoomsRouter(deps: {
  rooms: RoomService;
  resolveGame: ResolveGame;
  rateLimiter: RateLimiter;
  /** The games admin's guard (an admin session or an admin's API token). */
  adminAuth: RequestHandler;
}): Router {
  const { rooms, resolveGame, rateLimiter, adminAuth } = deps;
  const router = Router();
  router.use(['/admin/rooms', '/admin/chat-reports', '/games/:gameId/rooms'], noStore);

  router.get('/games/:gameId/rooms', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `rooms-lobby:${req.auth ? `user:${req.auth.user.id}` : `ip:${rateLimitAddress(req.ip)}`}`,
      LOBBY_READ_LIMIT,
      'Too many lobby requests. Please slow down.',
    );
    const game = resolveGame(req.params.gameId, { player: req.auth?.user.role ?? null });
    res.json({ rooms: await rooms.listPublic(game.id) } satisfies PublicRoomsResponse);
  });

  router.put('/admin/games/:id/rooms', noStore, adminAuth, async (req, res) => {
    const game = resolveGame(req.params.id, 'any');
    const settings = parseInput(GameRoomSettings, req.body);
    res.json((await rooms.setSettings(game.id, settings, actorOf(res))) satisfies GameRoomSettings);
  });

  router.get('/admin/rooms', adminAuth, async (req, res) => {
    const { gameId } = parseInput(RoomsQuery, req.query);
    res.json({ rooms: await rooms.listAll(gameId) } satisfies AdminRoomsResponse);
  });

  router.delete('/admin/rooms/:code', adminAuth, async (req, res) => {
    const code = RoomCode.safeParse(req.params.code);
    if (!code.success) {
      throw new HttpError(
        'ROOM_NOT_FOUND',
        `No live room '${String(req.params.code).slice(0, 20)}'`,
      );
    }
    await rooms.close(code.data, actorOf(res));
    res.status(204).end();
  });

  router.put('/admin/users/:userId/chat', noStore, requireAdmin, async (req, res) => {
    const userId = UserId.safeParse(req.params.userId);
    if (!userId.success) {
      throw userNotFound();
    }
    const input = parseInput(SetChatStatusRequest, req.body);
    const { user } = sessionOf(req);
    const status = await rooms.setChatStatus(userId.data, input, {
      id: user.id,
      username: user.username,
    });
    res.json({ status });
  });

  router.get('/admin/chat-reports', requireAdmin, async (_req, res) => {
    res.json({ reports: await rooms.chatReports() } satisfies ChatReportsResponse);
  });

  return router;
}
