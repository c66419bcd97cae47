import {
  GameSaveResponse,
  type GameSessionRequest,
  PlayTicketResponse,
  SaveSlotsResponse,
  UnlockedAchievement,
} from '@portfolio/types';

import {
  type LeaderboardQuery,
  LeaderboardResponse,
  LeaderboardsResponse,
  type SubmitScoreRequest,
  SubmitScoreResponse,
} from '@portfolio/types/leaderboards';

import { http, request } from '../../lib/http';

/**
 * Spec section 7: sent before a permitted game opens; a failure is only logged. Kept alive: a
 * game that needs isolation opens as a new page load, which would otherwise cancel it.
 */
export function trackGameClick(gameId: string): void {
  request('POST', '/api/track-game-click', { body: { gameId }, keepalive: true }).catch(
    (error: unknown) => {
      console.warn('Could not record the game click', error);
    },
  );
}

const gamePath = (gameId: string) => `/api/games/${encodeURIComponent(gameId)}`;

export function recordSession(gameId: string, action: GameSessionRequest['action']) {
  return http.post(`${gamePath(gameId)}/session`, { action });
}

/**
 * Ends a play session while the page or the viewer goes away: keepalive lets the request outlive
 * the document.
 */
export function endSessionOnExit(gameId: string): void {
  const body: GameSessionRequest = { action: 'end' };
  request('POST', `${gamePath(gameId)}/session`, { body, keepalive: true }).catch(() => undefined);
}

const slotQuery = (slot: number | undefined) => (slot ? `?slot=${slot}` : '');

/** Saves now, or (a guest's save kept in the account) at the time the guest saved it. */
export function saveGame(gameId: string, data: unknown, slot?: number, updatedAt?: string) {
  return request('PUT', `${gamePath(gameId)}/save${slotQuery(slot)}`, {
    body: updatedAt ? { data, updatedAt } : { data },
    schema: GameSaveResponse,
  });
}

/** A slot's save, or null when it has none yet. */
export async function loadGame(gameId: string, slot?: number): Promise<unknown> {
  return (await http.get(`${gamePath(gameId)}/save${slotQuery(slot)}`, GameSaveResponse)).data;
}

/** A slot's save with its time (the guest's progress is compared with it). */
export function loadSaveOf(gameId: string, slot?: number) {
  return http.get(`${gamePath(gameId)}/save${slotQuery(slot)}`, GameSaveResponse);
}

/** The slots that hold a save. */
export async function listSaveSlots(gameId: string) {
  return (await http.get(`${gamePath(gameId)}/saves`, SaveSlotsResponse)).slots;
}

/** Unlocks now, or (a guest's unlock kept in the account) at the time the guest unlocked it. */
export function unlockAchievement(gameId: string, name: string, unlockedAt?: string) {
  return http.post(
    `${gamePath(gameId)}/achievements`,
    unlockedAt ? { name, unlockedAt } : { name },
    UnlockedAchievement,
  );
}

/** A short-lived ticket for a multiplayer game's server, handed to the game's frame. */
export function getPlayTicket(gameId: string) {
  return http.post('/api/play-tickets', { gameId }, PlayTicketResponse);
}

/** A published game's leaderboards (public). */
export async function listLeaderboards(gameId: string, signal?: AbortSignal) {
  return (await http.get(`${gamePath(gameId)}/leaderboards`, LeaderboardsResponse, signal))
    .leaderboards;
}

/** A board in a period: its top, or with around 'me' the rows around the signed-in player. */
export function getLeaderboard(
  gameId: string,
  board: string,
  query: Partial<LeaderboardQuery>,
  signal?: AbortSignal,
) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) {
      params.set(name, String(value));
    }
  }
  return http.get(
    `${gamePath(gameId)}/leaderboards/${encodeURIComponent(board)}?${params.toString()}`,
    LeaderboardResponse,
    signal,
  );
}

export function submitScore(gameId: string, score: SubmitScoreRequest) {
  return http.post(`${gamePath(gameId)}/scores`, score, SubmitScoreResponse);
}
