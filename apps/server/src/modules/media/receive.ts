import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { API_ERRORS } from '@portfolio/types/errors';
import { formatBytes } from '@portfolio/types/format';
import type { MediaErrorCode, StoredMediaKind } from '@portfolio/types/media';

import { HttpError } from '../../lib/errors.js';
import { labelOf, SNIFF_BYTES, type SniffedType, sniffMediaType, typeNamedBy } from './sniff.js';

/*
 * Receiving one upload: the body streams to a temporary file while it is hashed; its first bytes
 * decide its type before the rest is read, so a refused type or a mismatched name is answered at
 * once and the size limit is the one of its kind.
 */

export type MediaLimits = Record<StoredMediaKind, number>;

const LIMIT_VARIABLES: Record<StoredMediaKind, string> = {
  image: 'MEDIA_MAX_IMAGE_BYTES',
  video: 'MEDIA_MAX_VIDEO_BYTES',
  audio: 'MEDIA_MAX_AUDIO_BYTES',
};

/** A refused upload with its stable code (its status is the catalogue's). */
export function refuseMedia(code: MediaErrorCode, message: string, details?: string): HttpError {
  // a 413 or 415 is answered before the whole body was read: the connection closes after it
  const headers: Record<string, string> =
    API_ERRORS[code].status === 400 ? {} : { Connection: 'close' };
  return new HttpError(code, { message, details, headers });
}

const tooLarge = (kind: StoredMediaKind | undefined, limit: number) =>
  refuseMedia(
    'MEDIA_TOO_LARGE',
    kind
      ? `The file is larger than the limit of ${formatBytes(limit)} for ${kind} uploads (${LIMIT_VARIABLES[kind]}).`
      : `The file is larger than the largest upload allowed (${formatBytes(limit)}).`,
  );

/** Decides an upload's type from its first bytes and the name it came with. */
export function decideType(head: Buffer, fileName: string): SniffedType {
  const sniffed = sniffMediaType(head);
  if (sniffed === undefined) {
    throw refuseMedia(
      'MEDIA_TYPE_REFUSED',
      'This file type is not accepted. Upload a JPEG, PNG, WebP, AVIF or GIF image, an MP4 or WebM video, or an MP3, OGG or WAV file.',
    );
  }
  if ('refused' in sniffed) {
    throw refuseMedia(
      'MEDIA_TYPE_REFUSED',
      'SVG images are not accepted (they can carry scripts). Upload a PNG, WebP or JPEG instead.',
    );
  }
  const named = typeNamedBy(fileName);
  if (named !== undefined && named !== sniffed.mime) {
    const ext = fileName.slice(fileName.lastIndexOf('.'));
    throw refuseMedia(
      'MEDIA_NAME_MISMATCH',
      `The file is named ${ext} but its bytes are ${sniffed.label}, not ${labelOf(named)}. Rename it or upload the right file.`,
    );
  }
  return sniffed;
}

class ClientGone extends Error {
  readonly type = 'request.aborted';
}

export interface ReceivedMedia {
  type: SniffedType;
  bytes: number;
  sha256: string;
}

/**
 * Streams a request body into `file` (created, never overwritten): typed by its first bytes,
 * capped at its kind's limit, hashed.
 */
export async function receiveMedia(
  req: IncomingMessage,
  file: string,
  fileName: string,
  limits: MediaLimits,
): Promise<ReceivedMedia> {
  const largest = Math.max(limits.image, limits.video, limits.audio);
  // a declared length over the limit is refused once the first bytes tell the kind (and so the
  // limit), before the rest is read
  const declared = Number(req.headers['content-length'] ?? NaN);
  const hash = createHash('sha256');
  let received = 0;
  let type: SniffedType | undefined;
  let head: Buffer[] = [];
  let headBytes = 0;
  const capOf = () => (type ? limits[type.kind] : largest);
  const decide = (stream: Transform) => {
    type = decideType(Buffer.concat(head, headBytes), fileName);
    if (Number.isFinite(declared) && declared > limits[type.kind]) {
      throw tooLarge(type.kind, limits[type.kind]);
    }
    stream.push(Buffer.concat(head, headBytes));
    head = [];
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      hash.update(chunk);
      try {
        if (received > capOf()) {
          throw tooLarge(type?.kind, capOf());
        }
        if (type) {
          callback(null, chunk);
          return;
        }
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES) {
          decide(this);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        if (!type) {
          if (headBytes === 0) {
            throw refuseMedia('MEDIA_EMPTY', 'The file is empty.');
          }
          decide(this);
        }
        if (type && received > limits[type.kind]) {
          throw tooLarge(type.kind, limits[type.kind]);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  const onClose = () => {
    if (!req.complete) {
      counter.destroy(new ClientGone('The client went away during the upload'));
    }
  };
  req.once('close', onClose);
  const written = pipeline(counter, createWriteStream(file, { flags: 'wx' }));
  req.pipe(counter);
  try {
    await written;
  } finally {
    req.off('close', onClose);
    req.unpipe(counter);
  }
  if (!type) {
    throw refuseMedia('MEDIA_EMPTY', 'The file is empty.');
  }
  return { type, bytes: received, sha256: hash.digest('hex') };
}
