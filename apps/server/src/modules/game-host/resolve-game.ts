import { decideGameAccess, type Role } from '@portfolio/types';

import { forbidden, HttpError } from '../../lib/errors.js';
import type { GameCatalogue, GameRecord, PlayableGame } from './catalogue.js';

/*
 * The one place a game-scoped route finds its game or is refused: every route under
 * /api/games/:gameId and /api/admin/games/:id loads its game here, after its rate limit and
 * authentication and before it validates the rest of the request, so an unknown game is always
 * the same 404 and a locked one the same 403.
 */

/** The one answer for a game id that is unknown (or, to players, unpublished or malformed). */
export function gameNotFound(gameId: string): HttpError {
  // cut: the id comes from the path and is echoed back
  return new HttpError('GAME_NOT_FOUND', `No game with the id '${gameId.slice(0, 64)}'`);
}

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
