import type { IncomingMessage } from 'node:http';

import type { RequestHandler } from 'express';
import helmet from 'helmet';

import { forbidden, HttpError } from './errors.js';

/** What Stripe.js and its card frames need (Stripe's CSP guide), and nothing else of Stripe's. */
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAMES = [
  'https://js.stripe.com',
  'https://*.js.stripe.com',
  'https://hooks.stripe.com',
];
const STRIPE_API = ['https://api.stripe.com'];

/**
 * Whether a path is the checkout page, the one document allowed to run Stripe.js. The web app
 * loads /subscribe as a document of its own when it is entered from another page, so this
 * document's policy is the one in force there.
 */
export function isStripePagePath(path: string): boolean {
  return path.replace(/\/+$/, '').toLowerCase() === '/subscribe';
}

interface SecurityHeadersOptions {
  isProduction: boolean;
  /**
   * The games origin as the browser that sent this request addresses it (gamesOriginFor, issue
   * 16): the site may frame it and show its thumbnails.
   */
  gamesOrigin?: (req: IncomingMessage) => string;
  /** CDNs in front of public builds (framed) and media (shown): GAMES_PUBLIC_URL, MEDIA_PUBLIC_URL. */
  cdn?: { games?: string | undefined; media?: string | undefined };
}

const originsOf = (url: string | undefined) => (url ? [new URL(url).origin] : []);

function contentSecurityPolicy(options: SecurityHeadersOptions & { allowStripe: boolean }) {
  const stripe = (origins: string[]) => (options.allowStripe ? origins : []);
  const { gamesOrigin } = options;
  const games = gamesOrigin ? [(req: IncomingMessage) => gamesOrigin(req)] : [];
  return {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      'frame-ancestors': ["'self'"],
      'form-action': ["'self'"],
      'script-src': ["'self'", ...stripe(STRIPE_SCRIPTS)],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', 'https:', ...games, ...originsOf(options.cdn?.media)],
      'media-src': ["'self'", 'blob:', 'https:', ...originsOf(options.cdn?.media)],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'", ...stripe(STRIPE_API)],
      'frame-src': [
        "'self'",
        ...games,
        ...originsOf(options.cdn?.games),
        ...stripe(STRIPE_FRAMES),
        'https://www.youtube.com',
        'https://www.youtube-nocookie.com',
        'https://player.vimeo.com',
        'https://blueprintue.com',
      ],
      'worker-src': ["'self'", 'blob:'],
      ...(options.isProduction ? { 'upgrade-insecure-requests': [] } : {}),
    },
  };
}

/**
 * Security headers with a strict CSP. Video hosts may be framed everywhere; Stripe's script,
 * frames and API only on the checkout page.
 */
export function securityHeaders(options: SecurityHeadersOptions): RequestHandler {
  const headers = (allowStripe: boolean) =>
    helmet({
      contentSecurityPolicy: contentSecurityPolicy({ ...options, allowStripe }),
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: options.isProduction,
    });
  const strict = headers(false);
  const checkout = headers(true);
  return (req, res, next) => {
    (isStripePagePath(req.path) ? checkout : strict)(req, res, next);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a Host header names this machine's loopback interface: localhost, 127.0.0.0/8 or
 * [::1] (with any port). A DNS-rebinding page can make the browser send any other name.
 */
export function isLoopbackHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether a browser's Origin is this site. With configured origins (PUBLIC_ORIGIN, required in
 * production) only those are: trusting the Host header there would let a DNS-rebinding page pass
 * as the site. Without (development), the origin must match the scheme and host the request came
 * in on, and that host must be a loopback name, which a rebinding page cannot be.
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
  return host !== undefined && origin === `${protocol}://${host}` && isLoopbackHost(host);
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
  options: { guardReads?: boolean } = {},
): HttpError | undefined {
  const isSafe = SAFE_METHODS.has(facts.method);
  if (isSafe && !options.guardReads) {
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
  if (isSafe) {
    return undefined;
  }
  const hasBody = Number(facts.contentLength ?? 0) > 0 || facts.transferEncoding !== undefined;
  const rawType = facts.contentType ?? '';
  // the header as fetch sends it needs no splitting (every heartbeat)
  const contentType =
    rawType === 'application/json' ? rawType : rawType.split(';')[0]?.trim().toLowerCase();
  const needsJson =
    hasBody || facts.method === 'POST' || facts.method === 'PUT' || facts.method === 'PATCH';
  if (needsJson && contentType !== 'application/json') {
    return new HttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Requests must be sent as JSON (Content-Type: application/json)',
    );
  }
  return undefined;
}

/**
 * Refuses state-changing requests from other sites: the browser's Sec-Fetch-Site and Origin must
 * say same origin (or an allowed public origin), and bodies must be JSON, which a plain cross-site
 * form cannot send. With `guardReads` (the API), reads from other origins are refused too: a
 * game on a games origin that shares the site's site (GAMES_ORIGIN_ALLOW_SAME_SITE, or another
 * port in development) sends the site's cookies, so its GETs must not be answered as the visitor.
 */
export function sameOriginGuard(
  allowedOrigins: readonly string[],
  options: { guardReads?: boolean } = {},
): RequestHandler {
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
      options,
    );
    if (error) {
      throw error;
    }
    next();
  };
}
