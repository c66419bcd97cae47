import {
  AdminRoomsResponse,
  GameRoomSettings,
  type GameRoomSettings as RoomSettings,
} from '@portfolio/types/rooms';

import { http, request } from '../../lib/http';

/** Live rooms of one game on every replica (GET /api/admin/rooms?gameId=). */
export function listLiveRooms(gameId: string, signal?: AbortSignal): Promise<AdminRoomsResponse> {
  return http.get(
    `/api/admin/rooms?gameId=${encodeURIComponent(gameId)}`,
    AdminRoomsResponse,
    signal,
  );
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
