import {
  AdminRoomsResponse,
  GameRoomSettings,
  type GameRoomSettings as RoomSettings,
} from '@portfolio/types/rooms';

import { http, request } from '../../lib/http';

/** Live rooms on every replica: one game's (GET /api/admin/rooms?gameId=) or every game's. */
export function listLiveRooms(
  gameId: string | undefined,
  signal?: AbortSignal,
): Promise<AdminRoomsResponse> {
  const query = gameId === undefined ? '' : `?gameId=${encodeURIComponent(gameId)}`;
  return http.get(`/api/admin/rooms${query}`, AdminRoomsResponse, signal);
}

/** Closes a live room: everyone in it is told (DELETE /api/admin/rooms/:code). */
export async function closeRoom(code: string): Promise<void> {
  await http.delete(`/api/admin/rooms/${encodeURIComponent(code)}`);
}

/** A game's room settings (PUT /api/admin/games/:gameId/rooms), as the server kept them. */
export function putRoomSettings(gameId: string, body: RoomSettings): Promise<RoomSettings> {
  return request('PUT', `/api/admin/games/${encodeURIComponent(gameId)}/rooms`, {
    body,
    schema: GameRoomSettings,
  });
}
