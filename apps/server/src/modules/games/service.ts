import type { Db } from '../../db/client.js';
import { recordSession } from './commands/record-session.js';
import { unlockAchievement } from './commands/unlock.js';
import { writeSave } from './commands/write-save.js';
import type { GamesContext, GameTitleOf, SessionAction } from './context.js';
import { listForUser } from './queries/list-for-user.js';
import { listSlots } from './queries/list-slots.js';
import { loadSave } from './queries/load-save.js';

export { type GameTitleOf, type SessionAction, titleOrId } from './context.js';

/**
 * What the game SDK records for a signed-in player: playtime from play sessions, one save per
 * game, achievements. Every call is one statement (the achievement cap adds one count). One
 * file per command and query over a GamesContext; this factory assembles them.
 */
export function createGamesService(deps: { db: Db; now?: () => Date; gameTitle?: GameTitleOf }) {
  const ctx: GamesContext = {
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    gameTitle: deps.gameTitle,
  };
  return {
    recordSession: (userId: string, gameId: string, action: SessionAction) =>
      recordSession(ctx, userId, gameId, action),
    loadSave: (userId: string, gameId: string, slot = 0) => loadSave(ctx, userId, gameId, slot),
    writeSave: (userId: string, gameId: string, data: unknown, slot = 0, updatedAt?: string) =>
      writeSave(ctx, userId, gameId, data, slot, updatedAt),
    listSlots: (userId: string, gameId: string) => listSlots(ctx, userId, gameId),
    unlock: (userId: string, gameId: string, name: string, unlockedAt?: string) =>
      unlockAchievement(ctx, userId, gameId, name, unlockedAt),
    listForUser: (userId: string) => listForUser(ctx, userId),
  };
}

export type GamesService = ReturnType<typeof createGamesService>;
