import { type RequestHandler, Router } from 'express';

import {
  MEDIA_FILE_NAME_HEADER,
  type MediaListResponse,
  type MediaUploadResponse,
  type MediaUsageResponse,
} from '@portfolio/types/media';
import { z } from 'zod';

import { binaryBodyGuard } from '../../lib/binary-body-guard.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { sendObject } from '../../lib/storage/send-object.js';
import { parseInput } from '../../lib/validate.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import { MEDIA_URL_PREFIX, type MediaService } from './service.js';

/*
 * Uploaded media:
 *
 *   POST   /api/admin/media        one file as the raw body (Content-Type: its type or
 *                                 application/octet-stream; X-File-Name: its name, percent-encoded)
 *                                 → 201 { media, existing: false }, or 200 { media, existing: true }
 *                                 when the same bytes were stored before
 *   GET    /api/admin/media        every stored item, newest first
 *   DELETE /api/admin/media/:id    the item and its files (409 while content uses it)
 *   GET    /media/<file>           the stored files (ranges, cached for a year)
 */

/** Body types the upload takes: any image, video or audio type, or unnamed bytes (the bytes decide). */
const isUploadType = (type: string) =>
  /^(image|video|audio)\/[a-z0-9.+-]+$/.test(type) || type === 'application/octet-stream';

const MediaId = z.uuid({ error: 'must be a media id' });

/** The X-File-Name header, decoded ('' when absent). */
function fileNameOf(header: string | undefined): string {
  if (header === undefined) {
    return '';
  }
  try {
    return decodeURIComponent(header);
  } catch {
    throw badRequest(`${MEDIA_FILE_NAME_HEADER}: must be percent-encoded (encodeURIComponent)`);
  }
}

/** Whether a request is a media upload (server.ts lets those take minutes while data flows). */
export function isMediaUpload(req: { method?: string | undefined; url?: string | undefined }) {
  return req.method === 'POST' && /^\/api\/admin\/media\/?(\?|$)/.test(req.url ?? '');
}

/**
 * The upload, mounted ahead of the API's JSON-only guard and parser: the body streams to disk
 * from the request itself. `resolveSession` is the API's session (and two-factor gate).
 */
export function createMediaUploadRouter(deps: {
  media: MediaService;
  allowedOrigins: readonly string[];
  resolveSession: RequestHandler;
}): Router {
  const { media, allowedOrigins, resolveSession } = deps;
  const router = Router();
  router.post(
    '/admin/media',
    binaryBodyGuard(
      isUploadType,
      allowedOrigins,
      'the file as the body with its type (Content-Type: image/png, video/mp4, audio/mpeg… or application/octet-stream)',
    ),
    resolveSession,
    requireAdmin,
    async (req, res) => {
      const fileName = fileNameOf(req.get(MEDIA_FILE_NAME_HEADER));
      const { user } = sessionOf(req);
      const result = await media.upload(req, fileName, { id: user.id });
      res.setHeader('Cache-Control', 'no-store');
      res.status(result.existing ? 200 : 201).json(result satisfies MediaUploadResponse);
    },
  );
  return router;
}

/** The admin's list and delete (behind the API's guard, parser and session). */
export function createMediaAdminRouter(deps: { media: MediaService }): Router {
  const { media } = deps;
  const router = Router();
  router.get('/admin/media', requireAdmin, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ media: await media.list() } satisfies MediaListResponse);
  });
  router.get('/admin/media/:id/usage', requireAdmin, async (req, res) => {
    const id = parseInput(MediaId, req.params.id);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ usedBy: await media.usage(id) } satisfies MediaUsageResponse);
  });
  router.delete('/admin/media/:id', requireAdmin, async (req, res) => {
    const id = parseInput(MediaId, req.params.id);
    await media.delete(id);
    res.status(204).end();
  });
  return router;
}

/** A stored file's name: a content hash, maybe a width or `thumb`, an extension. */
const STORED_FILE = /^\/[0-9a-f]{64}(-(\d+|thumb))?\.[a-z0-9]+$/;

const MEDIA_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // public pictures and sound that feed readers and other sites may show (the rest of the site
  // stays same-origin)
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/**
 * GET /media/<file>: the stored files with their type, byte ranges (video seeking), ETag and
 * 304, a year of caching (names are content hashes), no sniffing, embeddable by other origins
 * (feed readers); anything else under /media, a link on disk included, is a 404.
 */
export function createMediaStaticRouter(storage: ObjectStorage): Router {
  const router = Router();
  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !STORED_FILE.test(req.path)) {
      next(notFound('No such media file'));
      return;
    }
    const result = await sendObject(req, res, storage, req.path.slice(1), {
      cacheControl: 'public, max-age=31536000, immutable',
      headers: MEDIA_HEADERS,
      negotiate: false,
    });
    if (result !== 'sent') {
      next(notFound('No such media file'));
    }
  });
  return router;
}

export { MEDIA_URL_PREFIX };
