import { httpErrorOf, reportHttpError, type Schema } from './http';

/** The message of a failed upload that never got an answer (the connection dropped). */
export const UPLOAD_NETWORK_ERROR = 'The upload failed: the connection to the server was lost.';

export interface UploadOptions {
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
 * Sends a file as the raw body through XMLHttpRequest, which (unlike fetch) reports the upload's
 * progress: a game's build or thumbnail, an achievement's icon, a media upload. Failures reject
 * as `request` does (an HttpError with the server's message), an Error when the connection
 * dropped, an AbortError when `signal` cancels it.
 */
export function sendFile<T>(
  method: 'POST' | 'PUT',
  path: string,
  file: Blob,
  schema: Schema<T>,
  {
    contentType = file.type,
    headers = {},
    onProgress,
    signal,
  }: UploadOptions & { contentType?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType || 'application/octet-stream');
    for (const [name, value] of Object.entries(headers)) {
      xhr.setRequestHeader(name, value);
    }
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
