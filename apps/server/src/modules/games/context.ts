import { findGame, GAME_SESSION_MAX_GAP_SECONDS } from '@portfolio/types';

import type { Db } from '../../db/client.js';

export type SessionAction = 'start' | 'ping' | 'end';

/** A game's title in the catalogue (an owner's own game too), if it is there. */
export type GameTitleOf = (gameId: string) => string | undefined;

/** The title players see for a game id: the catalogue's, else the built-in list's, else the id. */
export const titleOrId = (titleOf: GameTitleOf | undefined, gameId: string): string =>
  titleOf?.(gameId) ?? findGame(gameId)?.title ?? gameId;

export const MAX_GAP_MS = GAME_SESSION_MAX_GAP_SECONDS * 1000;

/** What every game SDK command and query works with. */
export interface GamesContext {
  db: Db;
  now: () => Date;
  gameTitle?: GameTitleOf | undefined;
}
