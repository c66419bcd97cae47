import type { Achievement, GameStat } from '@portfolio/types';

import type { Db } from '../../db/client.js';

export interface UserGameRecords {
  games: GameStat[];
  achievements: Achievement[];
}

/** A user's game statistics, save data and achievements: what the game SDK recorded. */
export type GameRecordsReader = (userId: string) => Promise<UserGameRecords>;

/**
 * The one place the profile and the admin's user detail read game records from. The game SDK's
 * tables (playtime, saves, achievements) arrive with the games module; until then every user has
 * none, and both pages show their empty states.
 */
export function createGameRecordsReader(_db: Db): GameRecordsReader {
  return () => Promise.resolve({ games: [], achievements: [] });
}
