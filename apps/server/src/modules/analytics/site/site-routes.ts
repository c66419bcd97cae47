import { Router, type Request, type Response } from 'express';
import { z } from 'zod';

import {
  AnalyticsBeacon,
  AnalyticsDimension,
  AnalyticsQuery,
  type AnalyticsBreakdown,
  type AnalyticsGames,
  type AnalyticsOverview,
  type AnalyticsRealtime,
} from '@portfolio/types/analytics';

import { rateLimitAddress } from '../../../lib/client-address.js';
import { badRequest } from '../../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../../lib/rate-limit.js';
import { parseInput } from '../../../lib/validate.js';
import { requireAdmin } from '../../../access/policies.js';
import type { PresenceService } from '../../presence/index.js';
import type { Collector, RequestFacts } from './collector.js';
import type { AnalyticsQueryService } from './query-service.js';

/** Beacons per address: a page view or two and a game each, far below this for a person. */
export const BEACON_LIMIT: RateLimitRule = { limit: 240, windowMs: 60_000 };

const Limit = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000')
  .default(10);

/** A CSV cell: quoted, and a leading formula character neutralised for spreadsheets. */
function csvCell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r']/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function sendCsv(
  res: Response,
  fileName: string,
  header: string[],
  rows: Array<Array<string | number>>,
) {
  const body = [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
  res
    .status(200)
    .set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    })
    .send(body);
}

/** The query string of every analytics endpoint; `format` and `limit` are not filters. */
function parseQuery(req: Request) {
  const { format: _format, limit: _limit, ...rest } = req.query;
  return parseInput(AnalyticsQuery, rest);
}

const wantsCsv = (req: Request) => req.query.format === 'csv';

export function createSiteAnalyticsRouter(deps: {
  collector: Collector;
  queries: AnalyticsQueryService;
  presence: PresenceService;
  rateLimiter: RateLimiter;
  /** A published game of the catalogue (the database's): beacons name no other. */
  findGame: (gameId: string) => unknown;
  beaconLimit?: RateLimitRule;
}): Router {
  const { collector, queries, presence } = deps;
  const router = Router();

  // ---- collection ----------------------------------------------------------------------------
  router.post('/analytics/beacon', async (req, res) => {
    await enforceRateLimit(
      deps.rateLimiter,
      `beacon:ip:${rateLimitAddress(req.ip)}`,
      deps.beaconLimit ?? BEACON_LIMIT,
      'Too many analytics events. Please slow down.',
    );
    // and per signed-in user, whatever addresses they send from (as their heartbeats)
    if (req.auth) {
      await enforceRateLimit(
        deps.rateLimiter,
        `beacon:user:${req.auth.user.id}`,
        deps.beaconLimit ?? BEACON_LIMIT,
        'Too many analytics events. Please slow down.',
      );
    }
    const beacon = parseInput(AnalyticsBeacon, req.body);
    const facts: RequestFacts = { ip: req.ip, userAgent: req.get('user-agent') };
    if (beacon.type === 'leave') {
      collector.leave(facts, beacon);
      // the browser's last tab closed: it leaves Live Activity now, not when its entry expires
      if (beacon.last) {
        await presence.leave(req.auth?.user.id, beacon.visitorId, beacon.tab);
      }
    } else {
      if (!deps.findGame(beacon.gameId)) {
        throw badRequest('gameId: Unknown game');
      }
      if (beacon.type === 'play') {
        collector.play(facts, beacon.gameId, beacon.seconds);
      } else {
        collector.locked(facts, beacon.gameId);
      }
    }
    res.status(204).end();
  });

  // ---- the admin's queries -------------------------------------------------------------------
  router.get('/analytics/overview', requireAdmin, async (req, res) => {
    const answer: AnalyticsOverview = await queries.overview(parseQuery(req));
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/analytics/breakdown/:dimension', requireAdmin, async (req, res) => {
    const { dimension } = parseInput(z.object({ dimension: AnalyticsDimension }), req.params);
    const limit = parseInput(z.object({ limit: Limit }), { limit: req.query.limit }).limit;
    const answer: AnalyticsBreakdown = await queries.breakdown(dimension, parseQuery(req), limit);
    if (wantsCsv(req)) {
      const withTime = dimension === 'page';
      sendCsv(
        res,
        `analytics-${dimension}.csv`,
        [dimension, 'visitors', 'pageviews', ...(withTime ? ['time_seconds'] : [])],
        answer.rows.map((row) => [
          row.value,
          row.visitors,
          row.pageviews,
          ...(withTime ? [row.timeSeconds ?? 0] : []),
        ]),
      );
      return;
    }
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/analytics/realtime', requireAdmin, async (_req, res) => {
    const answer: AnalyticsRealtime = await queries.realtime();
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/analytics/games', requireAdmin, async (req, res) => {
    const answer: AnalyticsGames = await queries.games(parseQuery(req));
    if (wantsCsv(req)) {
      sendCsv(
        res,
        'analytics-games.csv',
        [
          'game',
          'title',
          'clicks',
          'locked_clicks',
          'plays',
          'play_seconds',
          'average_play_seconds',
          'playing_now',
        ],
        answer.games.map((game) => [
          game.gameId,
          game.title,
          game.clicks,
          game.lockedClicks,
          game.plays,
          game.playSeconds,
          game.averagePlaySeconds,
          game.playingNow,
        ]),
      );
      return;
    }
    res.set('Cache-Control', 'no-store').json(answer);
  });

  return router;
}
