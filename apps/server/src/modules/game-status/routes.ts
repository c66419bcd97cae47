import { Router } from 'express';

import type { GameStatusResponse } from '@portfolio/types';

import type { GameServerMonitor } from './monitor.js';

export function createGameStatusRouter(monitor: GameServerMonitor): Router {
  const router = Router();
  router.get('/game-status', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(monitor.getStatus() satisfies GameStatusResponse);
  });
  return router;
}
