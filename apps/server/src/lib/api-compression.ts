import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** JSON below this many bytes goes as it is: compressing it saves less than it costs. */
export const API_COMPRESSION_THRESHOLD = 4 * 1024;

function isEventStream(req: Request, res: Response): boolean {
  const contentType = res.getHeader('Content-Type');
  return (
    (typeof contentType === 'string' && contentType.startsWith('text/event-stream')) ||
    (req.get('accept') ?? '').includes('text/event-stream')
  );
}

/**
 * Compresses API answers above a few KB (the admin's lists and statistics) for clients that
 * accept it. Mounted on /api only: Socket.IO and the heartbeat fast path never reach Express,
 * and server-sent streams are skipped (compression would hold their events back).
 */
export function apiCompression(): RequestHandler {
  return compression({
    threshold: API_COMPRESSION_THRESHOLD,
    filter: (req, res) => !isEventStream(req, res) && compression.filter(req, res),
  });
}
