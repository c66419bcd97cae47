import { z } from 'zod';

import { ACHIEVEMENT_NAME_MAX_LENGTH } from './game-sdk.js';

/*
 * A game's achievement catalogue: the admin defines each achievement (key, name, description,
 * icon, points, hidden until unlocked); GameSDK.unlock(key) unlocks defined ones. A game without
 * a catalogue keeps unlocking free-form names, which the admin sees as undefined, to adopt.
 */

/** Achievements per game a catalogue may hold. */
export const ACHIEVEMENT_DEFS_PER_GAME_MAX = 200;
export const ACHIEVEMENT_POINTS_MAX = 1000;
/** The largest achievement icon accepted. */
export const ACHIEVEMENT_ICON_MAX_BYTES = 256 * 1024;

export const AchievementKey = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(ACHIEVEMENT_NAME_MAX_LENGTH, `must be at most ${ACHIEVEMENT_NAME_MAX_LENGTH} characters`);

/** `PUT /api/admin/games/:id/achievements/:key`: defines or changes one (adopts an undefined one). */
export const PutAchievementRequest = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(ACHIEVEMENT_NAME_MAX_LENGTH, `must be at most ${ACHIEVEMENT_NAME_MAX_LENGTH} characters`),
  description: z
    .string({ error: 'must be text' })
    .trim()
    .max(500, 'must be at most 500 characters')
    .default(''),
  points: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(ACHIEVEMENT_POINTS_MAX, `must be at most ${ACHIEVEMENT_POINTS_MAX}`)
    .default(0),
  hidden: z.boolean({ error: 'must be true or false' }).default(false),
});
export type PutAchievementRequest = z.infer<typeof PutAchievementRequest>;

/** One achievement of a catalogue as the admin sees it. */
export const AchievementDef = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  points: z.number().int(),
  hidden: z.boolean(),
  /** The icon on the games origin, or null. */
  iconUrl: z.string().nullable(),
  /** Players who have it. */
  players: z.number().int().nonnegative(),
});
export type AchievementDef = z.infer<typeof AchievementDef>;

/** `GET /api/admin/games/:id/achievements` */
export const AdminAchievementsResponse = z.object({
  achievements: z.array(AchievementDef),
  /** Names players unlocked that the catalogue does not define (to adopt). */
  undefined: z.array(z.object({ key: z.string(), players: z.number().int().nonnegative() })),
  /** Players with a record of the game (the share's denominator). */
  players: z.number().int().nonnegative(),
});
export type AdminAchievementsResponse = z.infer<typeof AdminAchievementsResponse>;

/** `PUT …/achievements/:key` and `PUT …/achievements/:key/icon` answer the achievement. */
export const AchievementDefResponse = z.object({ achievement: AchievementDef });
export type AchievementDefResponse = z.infer<typeof AchievementDefResponse>;

/**
 * One achievement of a game's catalogue as a player sees it (`GET /api/games/:id/achievements`):
 * a hidden one the player lacks has no name, description or icon.
 */
export const CatalogueAchievement = z.object({
  key: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  points: z.number().int(),
  hidden: z.boolean(),
  iconUrl: z.string().nullable(),
  /** Share of the game's players who have it, 0…1. */
  share: z.number().min(0).max(1),
  /** When the signed-in player unlocked it; null if they have not (or a guest asks). */
  unlockedAt: z.string().nullable(),
});
export type CatalogueAchievement = z.infer<typeof CatalogueAchievement>;

export const GameAchievementsResponse = z.object({
  achievements: z.array(CatalogueAchievement),
  players: z.number().int().nonnegative(),
});
export type GameAchievementsResponse = z.infer<typeof GameAchievementsResponse>;

/** What a hidden achievement the player lacks shows as. */
export const HIDDEN_ACHIEVEMENT_NAME = 'Hidden achievement';

/** 0.153 → '15%', 0.004 → '<1%' (the share of players). */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.01) {
    return '<1%';
  }
  return `${Math.round(share * 100)}%`;
}
