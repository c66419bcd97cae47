// What other modules may use of this one (they import nothing else from its folder).
export type { EmailConfirmation } from './email-confirmation.js';
export type { GameRecordsReader, UserGameRecords } from './game-records.js';
export type { UserRow, UsersRepo } from './repo.js';
