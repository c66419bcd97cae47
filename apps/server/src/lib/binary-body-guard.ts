import type { Request, RequestHandler } from 'express';

import { forbidden, HttpError } from './errors.js';
import { isSiteOrigin } from './security.js';

/** A request's media type, without parameters, in lower case ('' when absent). */
export const mediaTypeOf = (req: Request) =>
  (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The same-origin rule for binary bodies (game builds, thumbnails, media uploads): a browser's
 * request must come from the site (Origin, Sec-Fetch-Site), and the body's type must be one
 * `isAccepted` takes, none of which a cross-site form can send without a CORS preflight this
 * server never answers (never text/plain, form encodings or multipart).
 */
export function binaryBodyGuard(
  isAccepted: ReadonlySet<string> | ((type: string) => boolean),
  allowedOrigins: readonly string[],
  description: string,
): RequestHandler {
  const accepts =
    typeof isAccepted === 'function' ? isAccepted : (type: string) => isAccepted.has(type);
  return (req, _res, next) => {
    const origin = req.get('origin');
    const isAllowedOrigin =
      origin !== undefined && isSiteOrigin(origin, req.protocol, req.get('host'), allowedOrigins);
    const site = req.get('sec-fetch-site');
    if (
      (origin !== undefined && !isAllowedOrigin) ||
      (site !== undefined && site !== 'same-origin' && site !== 'none' && !isAllowedOrigin)
    ) {
      throw forbidden('Cross-site requests are not allowed');
    }
    if (!accepts(mediaTypeOf(req))) {
      throw new HttpError('UNSUPPORTED_MEDIA_TYPE', `Send ${description}`);
    }
    next();
  };
}
