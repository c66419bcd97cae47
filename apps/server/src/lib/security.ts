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
        'frame-src': [
          "'self'",
          'https://js.stripe.com',
          'https://hooks.stripe.com',
          'https://www.youtube.com',
          'https://www.youtube-nocookie.com',
          'https://player.vimeo.com',
          'https://blueprintue.com',
        ],
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
 * Whether a browser's Origin is this site. With configured origins (PUBLIC_ORIGIN) only those
 * are: trusting the Host header there would let a DNS-rebinding page pass as the site. Without,
 * the origin must match the scheme and host the request came in on.
 */
export function isSiteOrigin(
  origin: string,
  protocol: string,
  host: string | undefined,
  allowedOrigins: readonly string[],
): boolean {
  if (allowedOrigins.length > 0) {
    return allowedOrigins.includes(origin);
  }
  return host !== undefined && origin === `${protocol}://${host}`;
}

export interface RequestOriginFacts {
  method: string;
  protocol: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}

/**
 * The cross-site rule as a pure function, shared by the Express guard and the heartbeat fast
 * path: the error to answer with, or undefined when the request may proceed.
 */
export function checkSameOrigin(
  facts: RequestOriginFacts,
  allowedOrigins: readonly string[],
): HttpError | undefined {
  if (SAFE_METHODS.has(facts.method)) {
    return undefined;
  }
  const { origin, secFetchSite: site } = facts;
  const isAllowedOrigin =
    origin !== undefined && isSiteOrigin(origin, facts.protocol, facts.host, allowedOrigins);
  if (origin !== undefined && !isAllowedOrigin) {
    return forbidden('Cross-site requests are not allowed');
  }
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !isAllowedOrigin) {
    return forbidden('Cross-site requests are not allowed');
  }
  const hasBody = Number(facts.contentLength ?? 0) > 0 || facts.transferEncoding !== undefined;
  const contentType = (facts.contentType ?? '').split(';')[0]?.trim().toLowerCase();
  const needsJson = hasBody || ['POST', 'PUT', 'PATCH'].includes(facts.method);
  if (needsJson && contentType !== 'application/json') {
    return new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Requests must be sent as JSON (Content-Type: application/json)',
    );
  }
  return undefined;
}

/**
 * Refuses state-changing requests from other sites: the browser's Sec-Fetch-Site and Origin must
 * say same origin (or an allowed public origin), and bodies must be JSON, which a plain cross-site
 * form cannot send.
 */
export function sameOriginGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    const error = checkSameOrigin(
      {
        method: req.method,
        protocol: req.protocol,
        host: req.get('host'),
        origin: req.get('origin'),
        secFetchSite: req.get('sec-fetch-site'),
        contentType: req.get('content-type'),
        contentLength: req.get('content-length'),
        transferEncoding: req.get('transfer-encoding'),
      },
      allowedOrigins,
    );
    if (error) {
      throw error;
    }
    next();
  };
}
