import { Router } from 'express';

import type { ActiveUsersResponse } from '@portfolio/types';

import { requireAdmin } from '../../access/policies.js';
import type { PresenceService } from './service.js';

/**
 * The admins' live view. Heartbeats are served in front of Express by heartbeat-fast-path.ts
 * (see server.ts): they are most of the traffic.
 */
export function createPresenceRouter(presence: PresenceService): Router {
  const router = Router();

  router.get('/active-users', requireAdmin, async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json((await presence.getActiveUsers()) satisfies ActiveUsersResponse);
  });

  return router;
}
