import {
  MEDIA_FILE_NAME_HEADER,
  MediaListResponse,
  MediaUploadResponse,
  type StoredMedia,
} from '@portfolio/types/media';

import { http, httpErrorOf, reportHttpError, request } from '../../lib/http';

/** The message of a failed upload that never got an answer (the connection dropped). */
export const MEDIA_NETWORK_ERROR = 'The upload failed: the connection to the server was lost.';

export interface MediaUploadOptions {
  /** Called as the body goes out: bytes sent and the total. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

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
 * Uploads one file (POST /api/admin/media) as the raw body through XMLHttpRequest, which (unlike
 * fetch) reports the upload's progress. The server tells the type by the bytes; the name goes
 * along for its extension check and the list. Failures reject with an HttpError carrying the
 * server's message, or an Error when the connection dropped; a cancel rejects with AbortError.
 */
export function uploadMedia(
  file: File,
  { onProgress, signal }: MediaUploadOptions = {},
): Promise<MediaUploadResponse> {
  return new Promise<MediaUploadResponse>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/media');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader(MEDIA_FILE_NAME_HEADER, encodeURIComponent(file.name));
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
        resolve(MediaUploadResponse.parse(body));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new Error(MEDIA_NETWORK_ERROR));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    xhr.send(file);
  });
}

/** Every stored upload, newest first. */
export async function listMedia(signal?: AbortSignal): Promise<StoredMedia[]> {
  const { media } = await http.get('/api/admin/media', MediaListResponse, signal);
  return media;
}

/** Deletes an upload and its files (refused with 409 while content uses it). */
export async function deleteMedia(id: string): Promise<void> {
  await request('DELETE', `/api/admin/media/${encodeURIComponent(id)}`);
}
