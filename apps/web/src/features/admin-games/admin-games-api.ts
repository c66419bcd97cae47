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
  LeaderboardBansResponse,
  LeaderboardsResponse,
  type PutLeaderboardRequest,
} from '@portfolio/types/leaderboards';

import { http, httpErrorOf, reportHttpError, request, type Schema } from '../../lib/http';

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

export interface UploadOptions {
  /** Called as the body goes out: bytes sent and the total. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
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
  return putFile(
    `${gamePath(gameId)}/build${query}`,
    zip,
    'application/zip',
    GameBuildResponse,
    options,
  );
}

/** Uploads a game's thumbnail image (PUT /api/admin/games/:id/thumbnail). */
export async function uploadThumbnail(
  gameId: string,
  image: File,
  options: UploadOptions = {},
): Promise<void> {
  await putFile(`${gamePath(gameId)}/thumbnail`, image, image.type, IGNORED_BODY, options);
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

/** The message of a failed upload that never got an answer (the connection dropped). */
export const UPLOAD_NETWORK_ERROR = 'The upload failed: the connection to the server was lost.';

function parseJson(text: string): unknown {
  if (text.length === 0) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * PUTs a file as the raw body through XMLHttpRequest, which (unlike fetch) reports the upload's
 * progress. Failures reject as `request` does: an HttpError with the server's message.
 */
function putFile<T>(
  path: string,
  file: Blob,
  contentType: string,
  schema: Schema<T>,
  { onProgress, signal }: UploadOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    };
    const handleAbort = () => xhr.abort();
    signal?.addEventListener('abort', handleAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', handleAbort);
    xhr.onload = () => {
      settle();
      const body = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) {
        const error = httpErrorOf(xhr.status, body);
        reportHttpError(error);
        reject(error);
        return;
      }
      try {
        resolve(schema.parse(body));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new Error(UPLOAD_NETWORK_ERROR));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    xhr.send(file);
  });
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
  return putFile(
    `${achievementPath(gameId, key)}/icon`,
    image,
    image.type,
    AchievementDefResponse,
    {},
  );
}
