import type { RequestHandler } from 'express';
import helmet from 'helmet';

import { forbidden, HttpError } from './errors.js';

/** Security headers with a strict CSP. Stripe and video hosts are the only outside origins. */
export function securityHeaders(options: { isProduction: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'self'"],
        'form-action': ["'self'"],
        'script-src': ["'self'", 'https://js.stripe.com'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'media-src': ["'self'", 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'https://api.stripe.com'],
        'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com', 'https://www.youtube.com', 'https://www.youtube-nocookie.com', 'https://player.vimeo.com', 'https://blueprintue.com'],
        'worker-src': ["'self'", 'blob:'],
        ...(options.isProduction ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: options.isProduction,
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests from other sites: the browser's Sec-Fetch-Site and Origin must
 * say same origin (or an allowed public origin), and bodies must be JSON, which a plain cross-site
 * form cannot send.
 */
export function sameOriginGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const host = req.get('host');
    const isAllowedOrigin = origin !== undefined && (origin === `${req.protocol}://${host}` || allowedOrigins.includes(origin));
    if (origin !== undefined && !isAllowedOrigin) {
      throw forbidden('Cross-site requests are not allowed');
    }
    if (site !== undefined && site !== 'same-origin' && site !== 'none' && !isAllowedOrigin) {
      throw forbidden('Cross-site requests are not allowed');
    }
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    const contentType = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if ((hasBody || req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') && contentType !== 'application/json') {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Requests must be sent as JSON (Content-Type: application/json)');
    }
    next();
  };
}
