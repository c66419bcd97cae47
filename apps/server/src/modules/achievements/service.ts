import type { PutAchievementRequest } from '@portfolio/types/achievements';

import type { Db } from '../../db/client.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import type { Actor } from '../../access/audit.js';
import { checkUnlock } from './commands/check-unlock.js';
import { putAchievement } from './commands/put-achievement.js';
import { removeAchievement } from './commands/remove-achievement.js';
import { setIcon } from './commands/set-icon.js';
import type { AchievementContext } from './context.js';
import { adminView } from './queries/admin-view.js';
import { catalogue } from './queries/catalogue.js';
import { definitionsFor } from './queries/definitions-for.js';

export { ACHIEVEMENT_ICON_FILE, achievementIconPrefix, achievementIconUrl } from './context.js';

/*
 * A game's achievement catalogue: definitions by the admin (with an icon uploaded like the
 * game's thumbnail), what each player sees (hidden ones nameless until unlocked, the share of
 * players who have each), and the rule GameSDK.unlock follows: a game with a catalogue unlocks
 * only what it defines; a game without one keeps its free-form names. One file per command
 * (commands/) and per query (queries/) over an AchievementContext; this factory assembles them.
 */
export function createAchievementService(deps: { db: Db; storage: ObjectStorage }) {
  const ctx: AchievementContext = { db: deps.db, storage: deps.storage };
  return {
    adminView: (gameId: string) => adminView(ctx, gameId),
    catalogue: (gameId: string, userId?: string) => catalogue(ctx, gameId, userId),
    checkUnlock: (gameId: string, key: string) => checkUnlock(ctx, gameId, key),
    put: (gameId: string, key: string, input: PutAchievementRequest, actor: Actor) =>
      putAchievement(ctx, gameId, key, input, actor),
    remove: (gameId: string, key: string, actor: Actor) =>
      removeAchievement(ctx, gameId, key, actor),
    setIcon: (gameId: string, key: string, image: Buffer, contentType: string, actor: Actor) =>
      setIcon(ctx, gameId, key, image, contentType, actor),
    definitionsFor: (userId: string) => definitionsFor(ctx, userId),
  };
}

export type AchievementService = ReturnType<typeof createAchievementService>;
