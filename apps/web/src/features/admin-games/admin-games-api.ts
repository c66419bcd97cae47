import {
  AdminGamesResponse,
  AdminTokensResponse,
  type AdminToken,
  CreateAdminTokenResponse,
  GameAuditResponse,
  GameBuildResponse,
  type GameAuditEntry,
  type CreateGameRequest,
  type UpdateGameRequest,
} from '@portfolio/types/game-host';

import {
  AchievementDefResponse,
  AdminAchievementsResponse,
  type PutAchievementRequest,
} from '@portfolio/types/achievements';
import {
  AdminLeaderboardScoresResponse,
  LeaderboardBansResponse,
  LeaderboardsResponse,
  type PutLeaderboardRequest,
} from '@portfolio/types/leaderboards';

import { http, request, type Schema } from '../../lib/http';
import { sendFile, type UploadOptions } from '../../lib/upload';

export { UPLOAD_NETWORK_ERROR, type UploadOptions } from '../../lib/upload';

const gamePath = (gameId: string) => `/api/admin/games/${encodeURIComponent(gameId)}`;

/** Every game, published or not, with its versions (GET /api/admin/games). */
export async function listAdminGames(signal?: AbortSignal): Promise<AdminGamesResponse> {
  return http.get('/api/admin/games', AdminGamesResponse, signal);
}

/** Adds an unpublished game without a build. */
export async function createGame(body: CreateGameRequest): Promise<void> {
  await request('POST', '/api/admin/games', { body });
}

/** Changes any of a game's fields; `{ published }` publishes or unpublishes it. */
export async function updateGame(gameId: string, body: UpdateGameRequest): Promise<void> {
  await request('PATCH', gamePath(gameId), { body });
}

/** Deletes a game that is not built in, with its builds. */
export async function deleteGame(gameId: string): Promise<void> {
  await request('DELETE', gamePath(gameId));
}

/** The game's audit log, newest first (the last 100 entries). */
export async function listGameAudit(
  gameId: string,
  signal?: AbortSignal,
): Promise<GameAuditEntry[]> {
  const query = new URLSearchParams({ gameId }).toString();
  const { entries } = await http.get(`/api/admin/games/audit?${query}`, GameAuditResponse, signal);
  return entries;
}

/** Makes an earlier (or not yet live) version the live one: the one-click rollback. */
export async function activateBuild(gameId: string, version: number): Promise<void> {
  await request('POST', `${gamePath(gameId)}/builds/${version}/activate`);
}

/** Deletes a version that is not live, with its files. */
export async function deleteBuild(gameId: string, version: number): Promise<void> {
  await request('DELETE', `${gamePath(gameId)}/builds/${version}`);
}

/**
 * Uploads a build's zip (PUT /api/admin/games/:id/build) and answers the new version and what
 * the server detected. `activate: false` keeps the live version live.
 */
export function uploadBuild(
  gameId: string,
  zip: Blob,
  activate: boolean,
  options: UploadOptions = {},
): Promise<GameBuildResponse> {
  const query = activate ? '' : '?activate=false';
  return sendFile('PUT', `${gamePath(gameId)}/build${query}`, zip, GameBuildResponse, {
    ...options,
    contentType: 'application/zip',
  });
}

/** Uploads a game's thumbnail image (PUT /api/admin/games/:id/thumbnail). */
export async function uploadThumbnail(
  gameId: string,
  image: File,
  options: UploadOptions = {},
): Promise<void> {
  await sendFile('PUT', `${gamePath(gameId)}/thumbnail`, image, IGNORED_BODY, options);
}

/** An answer whose body the caller does not read (it reloads the list instead). */
const IGNORED_BODY: Schema<void> = { parse: () => undefined };

/** The admin API tokens (never the tokens themselves: only their names and dates). */
export async function listTokens(signal?: AbortSignal): Promise<AdminToken[]> {
  const { tokens } = await http.get('/api/admin/tokens', AdminTokensResponse, signal);
  return tokens;
}

/** Makes a token; the answer is the only time the token itself is seen. */
export function createToken(name: string): Promise<CreateAdminTokenResponse> {
  return http.post('/api/admin/tokens', { name }, CreateAdminTokenResponse);
}

export async function revokeToken(id: string): Promise<void> {
  await request('DELETE', `/api/admin/tokens/${encodeURIComponent(id)}`);
}

const boardPath = (gameId: string, board: string) =>
  `${gamePath(gameId)}/leaderboards/${encodeURIComponent(board)}`;

/** A game's leaderboards, published or not. */
export async function listAdminLeaderboards(gameId: string, signal?: AbortSignal) {
  return (await http.get(`${gamePath(gameId)}/leaderboards`, LeaderboardsResponse, signal))
    .leaderboards;
}

/** Defines a board or changes one. */
export async function putLeaderboard(
  gameId: string,
  board: string,
  body: PutLeaderboardRequest,
): Promise<void> {
  await request('PUT', boardPath(gameId, board), { body });
}

/** Deletes a board with its scores. */
export async function deleteLeaderboard(gameId: string, board: string): Promise<void> {
  await request('DELETE', boardPath(gameId, board));
}

/** A board's all-time top with the players' user ids (the admin's view). */
export async function listScores(gameId: string, board: string, signal?: AbortSignal) {
  return (
    await http.get(
      `${boardPath(gameId, board)}/scores?limit=100`,
      AdminLeaderboardScoresResponse,
      signal,
    )
  ).entries;
}

/** Removes a player's scores from a board (every period). */
export async function removeScore(gameId: string, board: string, userId: string): Promise<void> {
  await request('DELETE', `${boardPath(gameId, board)}/scores/${encodeURIComponent(userId)}`);
}

/** Bans a player from a board: their scores go, new ones are refused. */
export async function banPlayer(gameId: string, board: string, userId: string): Promise<void> {
  await request('POST', `${boardPath(gameId, board)}/bans`, { body: { userId } });
}

export async function unbanPlayer(gameId: string, board: string, userId: string): Promise<void> {
  await request('DELETE', `${boardPath(gameId, board)}/bans/${encodeURIComponent(userId)}`);
}

export async function listBans(gameId: string, board: string, signal?: AbortSignal) {
  return (await http.get(`${boardPath(gameId, board)}/bans`, LeaderboardBansResponse, signal)).bans;
}

const achievementPath = (gameId: string, key: string) =>
  `${gamePath(gameId)}/achievements/${encodeURIComponent(key)}`;

/** A game's achievement catalogue with the names players hold that it does not define. */
export function listAdminAchievements(gameId: string, signal?: AbortSignal) {
  return http.get(`${gamePath(gameId)}/achievements`, AdminAchievementsResponse, signal);
}

/** Defines an achievement, changes one, or adopts an undefined name. */
export async function putAchievement(
  gameId: string,
  key: string,
  body: PutAchievementRequest,
): Promise<void> {
  await request('PUT', achievementPath(gameId, key), { body });
}

export async function deleteAchievement(gameId: string, key: string): Promise<void> {
  await request('DELETE', achievementPath(gameId, key));
}

/** Uploads an achievement's icon (PNG, JPEG or WebP), as the game's thumbnail is uploaded. */
export function uploadAchievementIcon(gameId: string, key: string, image: File) {
  return sendFile('PUT', `${achievementPath(gameId, key)}/icon`, image, AchievementDefResponse);
}
