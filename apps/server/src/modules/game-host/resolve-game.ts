import { decideGameAccess, type Role } from '@portfolio/types';

import { forbidden, gameNotFound } from '../../lib/errors.js';

export { gameNotFound };
import type { GameCatalogue, GameRecord, PlayableGame } from './catalogue.js';

/*
 * The one place a game-scoped route finds its game or is refused: every route under
 * /api/games/:gameId and /api/admin/games/:id loads its game here, after its rate limit and
 * authentication and before it validates the rest of the request, so an unknown game is always
 * the same 404 and a locked one the same 403.
 */

/**
 * Which games the route reaches: `any` every game of the catalogue, published or not (the
 * admin's routes); `published` a published game, whoever asks (its boards, its achievements);
 * `{ player: role }` a published game that role may open (the game-access rule), else 403.
 */
export type GameScope = 'any' | 'published' | { player: Role | null };

/** A game found for a route: what the access rule and the records need, and its catalogue record. */
export interface ResolvedGame extends PlayableGame {
  record: GameRecord;
}

/** Finds the game of a request (its id straight from the path) for a scope, or throws 404/403. */
export type ResolveGame = (gameId: unknown, scope: GameScope) => ResolvedGame;

export function createGameResolver(catalogue: Pick<GameCatalogue, 'get'>): ResolveGame {
  return (gameId, scope) => {
    const id = typeof gameId === 'string' ? gameId : '';
    const record = id ? catalogue.get(id) : undefined;
    if (!record || (scope !== 'any' && !record.game.published)) {
      throw gameNotFound(id);
    }
    const { game } = record;
    const resolved: ResolvedGame = {
      id: game.id,
      title: game.title,
      access: game.access,
      isMultiplayer: game.isMultiplayer,
      record,
    };
    if (typeof scope === 'object' && !decideGameAccess(resolved, scope.player).allowed) {
      throw forbidden(`${game.title} is for subscribers`);
    }
    return resolved;
  };
}
