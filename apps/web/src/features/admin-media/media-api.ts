import {
  MEDIA_FILE_NAME_HEADER,
  MediaListResponse,
  MediaUploadResponse,
  MediaUsageResponse,
  type MediaUse,
  type StoredMedia,
} from '@portfolio/types/media';

import { http, request } from '../../lib/http';
import { sendFile, UPLOAD_NETWORK_ERROR, type UploadOptions } from '../../lib/upload';

/** The message of a failed upload that never got an answer (the connection dropped). */
export const MEDIA_NETWORK_ERROR = UPLOAD_NETWORK_ERROR;

export type MediaUploadOptions = UploadOptions;

/**
 * Uploads one file (POST /api/admin/media) as the raw body through XMLHttpRequest, which (unlike
 * fetch) reports the upload's progress. The server tells the type by the bytes; the name goes
 * along for its extension check and the list. Failures reject with an HttpError carrying the
 * server's message, or an Error when the connection dropped; a cancel rejects with AbortError.
 */
export function uploadMedia(
  file: File,
  { onProgress, signal }: MediaUploadOptions = {},
): Promise<MediaUploadResponse> {
  return sendFile('POST', '/api/admin/media', file, MediaUploadResponse, {
    headers: { [MEDIA_FILE_NAME_HEADER]: encodeURIComponent(file.name) },
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** Every stored upload, newest first. */
export async function listMedia(signal?: AbortSignal): Promise<StoredMedia[]> {
  const { media } = await http.get('/api/admin/media', MediaListResponse, signal);
  return media;
}

/** What shows an upload (projects, posts): the server refuses to delete it while any does. */
export async function getMediaUsage(id: string, signal?: AbortSignal): Promise<MediaUse[]> {
  const { usedBy } = await http.get(
    `/api/admin/media/${encodeURIComponent(id)}/usage`,
    MediaUsageResponse,
    signal,
  );
  return usedBy;
}

/** Deletes an upload and its files (refused with 409 while content uses it). */
export async function deleteMedia(id: string): Promise<void> {
  await request('DELETE', `/api/admin/media/${encodeURIComponent(id)}`);
}
