import type { Achievement, GameStat } from '@portfolio/types';

/*
 * What the profile and the admin's user detail show of a user's play. The games module reads it
 * (games/game-records.ts) and the container hands the reader in, so users depends on no game module.
 */

export interface UserGameRecords {
  games: GameStat[];
  achievements: Achievement[];
}

/** A user's game statistics, save data and achievements: what the game SDK recorded. */
export type GameRecordsReader = (userId: string) => Promise<UserGameRecords>;
