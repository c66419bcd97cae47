import type { AdminAchievementsResponse } from '@portfolio/types/achievements';

import { type AchievementContext, counts, definitions, toDef } from '../context.js';

/** The admin's view: definitions with how many players have each, and undefined names. */
export async function adminView(
  ctx: AchievementContext,
  gameId: string,
): Promise<AdminAchievementsResponse> {
  const [rows, { byName, players }] = await Promise.all([
    definitions(ctx, gameId),
    counts(ctx, gameId),
  ]);
  const defined = new Set(rows.map((row) => row.key));
  return {
    achievements: rows.map((row) => toDef(row, byName.get(row.key) ?? 0)),
    undefined: [...byName]
      .filter(([name]) => !defined.has(name))
      .map(([key, count]) => ({ key, players: count }))
      .sort((a, b) => b.players - a.players || a.key.localeCompare(b.key)),
    players,
  };
}
