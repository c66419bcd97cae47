import { eq } from 'drizzle-orm';

import { DEFAULT_GAME_ROOM_SETTINGS, type GameRoomSettings } from '@portfolio/types/rooms';

import type { Db } from '../../../db/client.js';
import { games } from '../../../db/schema.js';
import type { Actor } from '../../../access/audit.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { GameCatalogue } from '../../game-host/index.js';

/** A game's room settings (defaults for a game that never set them). */
export function roomSettingsOf(
  catalogue: Pick<GameCatalogue, 'get'>,
  gameId: string,
): GameRoomSettings {
  return { ...DEFAULT_GAME_ROOM_SETTINGS, ...catalogue.get(gameId)?.game.roomSettings };
}

const describe = (settings: GameRoomSettings) =>
  `Rooms: guests ${settings.guests ? 'allowed' : 'refused'}, chat ${settings.chat ? 'on' : 'off'}, ` +
  `${settings.graceSeconds} s to reconnect, ${settings.maxPlayers} seats`;

/** The admin's settings for a game's rooms, audited in the game's log; every replica reads them again. */
export async function setRoomSettings(
  deps: { db: Db; catalogue: GameCatalogue },
  gameId: string,
  settings: GameRoomSettings,
  actor: Actor,
): Promise<GameRoomSettings> {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(games)
      .set({ roomSettings: settings, updatedAt: new Date() })
      .where(eq(games.id, gameId));
    await recordGameAudit(tx, {
      action: 'rooms-settings',
      actor,
      gameId,
      detail: describe(settings),
    });
  });
  await deps.catalogue.changed();
  return roomSettingsOf(deps.catalogue, gameId);
}
