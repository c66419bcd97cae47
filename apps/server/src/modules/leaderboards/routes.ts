import { type Request, type RequestHandler, Router } from 'express';

import {
  AdminLeaderboardScoresQuery,
  type AdminLeaderboardScoresResponse,
  BanPlayerRequest,
  LeaderboardKey,
  LeaderboardQuery,
  type LeaderboardBansResponse,
  type LeaderboardResponse,
  type LeaderboardsResponse,
  PutLeaderboardRequest,
  type PutLeaderboardResponse,
  SubmitScoreRequest,
  type SubmitScoreResponse,
} from '@portfolio/types/leaderboards';
import { z } from 'zod';

import { rateLimitAddress } from '../../lib/client-address.js';
import { notFound } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { requireUser, sessionOf } from '../../access/policies.js';
import { actorOf } from '../../access/admin-guard.js';
import type { ResolveGame } from '../game-host/index.js';
import type { LeaderboardService } from './service.js';

/*
 *   GET    /api/games/:gameId/leaderboards                       a published game's boards
 *   GET    /api/games/:gameId/leaderboards/:board?period=&around=&limit=
 *                                                                a board (public; around=me for
 *                                                                the signed-in player's rows)
 *   POST   /api/games/:gameId/scores { board, value }            a signed-in player's score
 *   GET    /api/admin/games/:id/leaderboards                     every board of a game
 *   PUT    /api/admin/games/:id/leaderboards/:board              define or change a board
 *   DELETE /api/admin/games/:id/leaderboards/:board              delete it with its scores
 *   GET    /api/admin/games/:id/leaderboards/:board/scores?limit=    the all-time top with user
 *                                                                ids (the public board has names)
 *   DELETE /api/admin/games/:id/leaderboards/:board/scores/:userId   remove a player's score
 *   GET/POST /api/admin/games/:id/leaderboards/:board/bans, DELETE …/bans/:userId
 *
 * Each route: rate limit → authenticate → resolve the game → validate → authorize → command.
 * A malformed board key is a 400 (`board: …`); a well-formed key no board has is a 404.
 */

/**
 * Scores per player and game: a game posting at every level's end stays far below; a script
 * flooding the board does not.
 */
export const SCORE_SUBMIT_LIMIT: RateLimitRule = { limit: 10, windowMs: 60_000 };
/** Board reads per address (the top is cached; a player's rank is one query). */
export const LEADERBOARD_READ_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

const UserIdParam = z.uuid();
/** The board of the path, checked like any other input. */
const BoardParams = z.object({ board: LeaderboardKey });

const boardOf = (req: Request): string => parseInput(BoardParams, req.params).board;

function userIdOf(req: Request): string {
  const parsed = UserIdParam.safeParse(req.params.userId);
  if (!parsed.success) {
    throw notFound('No such user');
  }
  return parsed.data;
}

export function createLeaderboardRouter(deps: {
  leaderboards: LeaderboardService;
  rateLimiter: RateLimiter;
  resolveGame: ResolveGame;
  /** An admin session or an admin's API token (access/admin-guard.ts's gameAdminAuth). */
  adminAuth: RequestHandler;
}): Router {
  const { leaderboards, rateLimiter, resolveGame, adminAuth } = deps;
  const router = Router();

  /** Any game of the catalogue, published or not: the admin's routes. */
  const adminGame = (req: Request): string => resolveGame(req.params.id, 'any').id;

  router.get('/games/:gameId/leaderboards', async (req, res) => {
    const game = resolveGame(req.params.gameId, 'published');
    res
      .set('Cache-Control', 'public, max-age=5')
      .json({ leaderboards: await leaderboards.list(game.id) } satisfies LeaderboardsResponse);
  });

  router.get('/games/:gameId/leaderboards/:board', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `leaderboard-read:${req.auth ? `user:${req.auth.user.id}` : `ip:${rateLimitAddress(req.ip)}`}`,
      LEADERBOARD_READ_LIMIT,
      'Too many leaderboard requests. Please slow down.',
    );
    const game = resolveGame(req.params.gameId, 'published');
    const board = boardOf(req);
    const query = parseInput(LeaderboardQuery, req.query);
    const isMine = query.around === 'me' && req.auth !== undefined;
    const answer = await leaderboards.read(game.id, board, {
      ...query,
      userId: isMine ? req.auth?.user.id : undefined,
      viewerId: req.auth?.user.id,
    });
    // the top is cached here (LEADERBOARD_CACHE_MS, dropped by every score): a browser asks
    // each time, so a viewer reading the board after its own score sees it
    res
      .set('Cache-Control', isMine ? 'private, no-store' : 'no-cache')
      .json(answer satisfies LeaderboardResponse);
  });

  router.post('/games/:gameId/scores', requireUser, async (req, res) => {
    const { user } = sessionOf(req);
    // keyed by the path's id before the game is looked up: unknown games count too
    await enforceRateLimit(
      rateLimiter,
      `scores:user:${user.id}:${String(req.params.gameId).slice(0, 64)}`,
      SCORE_SUBMIT_LIMIT,
      'Too many scores. Please slow down.',
    );
    const game = resolveGame(req.params.gameId, { player: user.role });
    const { board, value, achievedAt } = parseInput(SubmitScoreRequest, req.body);
    const answer = await leaderboards.submit(user.id, game.id, board, value, achievedAt);
    res.status(201).json(answer satisfies SubmitScoreResponse);
  });

  router.get('/admin/games/:id/leaderboards', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    res
      .set('Cache-Control', 'no-store')
      .json({ leaderboards: await leaderboards.list(gameId) } satisfies LeaderboardsResponse);
  });

  router.put('/admin/games/:id/leaderboards/:board', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    const board = boardOf(req);
    const input = parseInput(PutLeaderboardRequest, req.body);
    const { created, leaderboard } = await leaderboards.put(gameId, board, input, actorOf(res));
    res.status(created ? 201 : 200).json({ leaderboard } satisfies PutLeaderboardResponse);
  });

  router.delete('/admin/games/:id/leaderboards/:board', adminAuth, async (req, res) => {
    await leaderboards.remove(adminGame(req), boardOf(req), actorOf(res));
    res.status(204).end();
  });

  router.get('/admin/games/:id/leaderboards/:board/scores', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    const board = boardOf(req);
    const { limit } = parseInput(AdminLeaderboardScoresQuery, req.query);
    const { entries } = await leaderboards.readTopUncached(gameId, board, 'all', limit, false);
    res.set('Cache-Control', 'no-store').json({ entries } satisfies AdminLeaderboardScoresResponse);
  });

  router.delete(
    '/admin/games/:id/leaderboards/:board/scores/:userId',
    adminAuth,
    async (req, res) => {
      await leaderboards.removeScores(adminGame(req), boardOf(req), userIdOf(req), actorOf(res));
      res.status(204).end();
    },
  );

  router.get('/admin/games/:id/leaderboards/:board/bans', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    const board = boardOf(req);
    await leaderboards.findBoard(gameId, board);
    res
      .set('Cache-Control', 'no-store')
      .json({ bans: await leaderboards.listBans(gameId, board) } satisfies LeaderboardBansResponse);
  });

  router.post('/admin/games/:id/leaderboards/:board/bans', adminAuth, async (req, res) => {
    const gameId = adminGame(req);
    const board = boardOf(req);
    const { userId } = parseInput(BanPlayerRequest, req.body);
    await leaderboards.ban(gameId, board, userId, actorOf(res));
    res.status(204).end();
  });

  router.delete(
    '/admin/games/:id/leaderboards/:board/bans/:userId',
    adminAuth,
    async (req, res) => {
      await leaderboards.unban(adminGame(req), boardOf(req), userIdOf(req), actorOf(res));
      res.status(204).end();
    },
  );

  return router;
}
