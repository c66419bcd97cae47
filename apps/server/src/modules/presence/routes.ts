import { Router } from 'express';

import {
  type ActiveUsersResponse,
  AnonymousHeartbeatRequest,
  HeartbeatRequest,
  type HeartbeatResponse,
} from '@portfolio/types';

import { parseInput } from '../../lib/validate.js';
import { requireAdmin, requireUser } from '../auth/policies.js';
import type { PresenceService } from './service.js';

const OK: HeartbeatResponse = { ok: true };

/** Heartbeats (the hot path: no database, no session write) and the admins' live view. */
export function createPresenceRouter(presence: PresenceService): Router {
  const router = Router();

  router.post('/auth/heartbeat', requireUser, async (req, res) => {
    const { currentPage } = parseInput(HeartbeatRequest, req.body);
    // requireUser guarantees auth; the check narrows the type
    if (req.auth) {
      await presence.heartbeatUser(req.auth.user, currentPage);
    }
    res.json(OK);
  });

  router.post('/anonymous-heartbeat', async (req, res) => {
    const input = parseInput(AnonymousHeartbeatRequest, req.body);
    // a tab that has not noticed its login yet still belongs to the user, not to a new guest
    if (req.auth) {
      await presence.heartbeatUser(req.auth.user, input.currentPage);
    } else {
      await presence.heartbeatGuest({ ...input, ip: req.ip, userAgent: req.get('user-agent') });
    }
    res.json(OK);
  });

  router.get('/active-users', requireAdmin, async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json((await presence.getActiveUsers()) satisfies ActiveUsersResponse);
  });

  return router;
}
