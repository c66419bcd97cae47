import type { IncomingMessage, ServerResponse } from 'node:http';

import type { z } from 'zod';

import { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';

import type { Config } from '../../config.js';
import {
  HttpError,
  badRequest,
  describeZodError,
  errorBody,
  isClientGone,
  toHttpError,
  unauthorized,
} from '../../lib/errors.js';
import { rateLimitAddress } from '../../lib/client-address.js';
import { guestHeartbeats, userHeartbeats } from '../../lib/metrics.js';
import { createRequestOrigin } from '../../lib/proxy-trust.js';
import {
  createMemoryRateLimiter,
  enforceRateLimit,
  type RateLimitRule,
} from '../../lib/rate-limit.js';
import { isKnownBot } from '../../lib/known-bots.js';
import { checkSameOrigin } from '../../lib/security.js';
import { createSessionCookies, resolveSessionCookie, type SessionService } from '../auth/index.js';
import type { Collector } from '../analytics/index.js';
import type { PresenceService } from './service.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('heartbeat');

const USER_PATH = '/api/auth/heartbeat';
const GUEST_PATH = '/api/anonymous-heartbeat';
/** A heartbeat is a page path and a visitor id: far below this. */
const MAX_BODY_BYTES = 4096;
const OK_BODY = JSON.stringify({ ok: true });
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Writes a JSON answer with the headers every API answer carries. */
function send(
  res: ServerResponse,
  status: number,
  body: string,
  extra: Record<string, string | string[]> = {},
) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

/** The body as text, refused past MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError('PAYLOAD_TOO_LARGE', 'Request body is too large'));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    // cut off before the end: settled as an error that is answered with nothing
    req.on('close', () => {
      if (!req.complete) {
        reject(Object.assign(new Error('client went away'), { code: 'ECONNABORTED' }));
      }
    });
  });
}

/** JSON checked against a contract; a 400 with the first issue otherwise. */
function parse<T extends z.ZodType>(schema: T, text: string): z.infer<T> {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw badRequest(describeZodError(result.error));
  }
  return result.data;
}

/**
 * Serves the two heartbeat calls on bare node:http, in front of Express.
 *
 * Every open tab sends one every 30 s, so they are most of the traffic; Express's per-request cost
 * is ~7× the work here (measured on this project's machine). The rules are the same as on every
 * other call, shared rather than copied: the same-origin check, session resolution from the
 * cookie (memory, no query), the zod contracts and the error body. Anything else, including
 * heartbeats with another method, goes to Express.
 *
 * @returns a request listener that calls `next` for everything it does not serve
 */
export function createHeartbeatFastPath(deps: {
  config: Pick<Config, 'publicOrigin' | 'trustProxy'>;
  sessions: SessionService;
  presence: PresenceService;
  guestHeartbeatLimit: RateLimitRule;
  /** Heartbeats per signed-in user, whichever path they take (each may carry a page view). */
  userHeartbeatLimit: RateLimitRule;
  /** Site analytics: a heartbeat that starts a page view is one (memory, batched). */
  collector?: Collector;
}) {
  const { config, sessions, presence, collector } = deps;
  // guest heartbeats per address: each new visitor id is a new "visitor" in the counts
  const guestLimiter = createMemoryRateLimiter();
  // and per signed-in user: one account must not send page views without end either
  const userLimiter = createMemoryRateLimiter();
  const limitUser = (userId: string) =>
    enforceRateLimit(
      userLimiter,
      `user:${userId}`,
      deps.userHeartbeatLimit,
      'Too many heartbeats from this account. Please try again later.',
    );
  const allowedOrigins = config.publicOrigin ? [config.publicOrigin] : [];
  // req.ip and req.protocol as Express reads them with the same TRUST_PROXY
  const requestOrigin = createRequestOrigin(config.trustProxy);
  const cookies = createSessionCookies({ publicOrigin: config.publicOrigin });

  /** Only heartbeats that start a page view reach analytics; the every-30-s ones cost nothing. */
  function noteView(req: IncomingMessage, input: HeartbeatRequest) {
    if (collector && input.view) {
      collector.view(
        { ip: requestOrigin.clientAddress(req), userAgent: req.headers['user-agent'] },
        { ...input.view, path: input.view.path ?? input.currentPage, left: input.left },
      );
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse, isUserPath: boolean) {
    const refused = checkSameOrigin(
      {
        method: 'POST',
        protocol: requestOrigin.protocol(req),
        host: req.headers.host,
        origin: req.headers.origin,
        secFetchSite: req.headers['sec-fetch-site'],
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        transferEncoding: req.headers['transfer-encoding'],
      },
      allowedOrigins,
    );
    if (refused) {
      req.resume();
      throw refused;
    }
    const text = await readBody(req);
    const resolved = await resolveSessionCookie(sessions, cookies.names, req.headers.cookie);
    const { session } = resolved;
    // a stale cookie: forget it so the browser stops sending it; a planted partitioned copy
    // beside the real one: forget that one only (as the session middleware does)
    // (the request's protocol is read only then: a signed-in heartbeat does not pay for it)
    const headers: Record<string, string | string[]> =
      resolved.session !== null
        ? NO_HEADERS
        : resolved.isStale
          ? { 'Set-Cookie': cookies.clearingHeader(requestOrigin.protocol(req) === 'https') }
          : resolved.isConflict
            ? {
                'Set-Cookie': cookies.plantedClearingHeader(
                  requestOrigin.protocol(req) === 'https',
                ),
              }
            : NO_HEADERS;
    if (isUserPath) {
      if (!session) {
        const required = unauthorized();
        throw new HttpError(required.code, { message: required.message, headers });
      }
      const input = parse(HeartbeatRequest, text);
      await limitUser(session.user.id);
      noteView(req, input);
      await presence.heartbeatUser(session.user, input);
    } else {
      const input = parse(AnonymousHeartbeatRequest, text);
      // a tab that has not noticed its login yet still belongs to the user, not to a new guest
      if (session) {
        await limitUser(session.user.id);
        await presence.heartbeatUser(session.user, input);
      } else {
        const ip = requestOrigin.clientAddress(req);
        await enforceRateLimit(
          guestLimiter,
          rateLimitAddress(ip),
          deps.guestHeartbeatLimit,
          'Too many heartbeats from this address. Please try again later.',
        );
        const userAgent = req.headers['user-agent'];
        // a crawler that runs scripts (Googlebot) is no visitor: Live Activity leaves it out,
        // while analytics counts its page view as a bot's
        if (!isKnownBot(userAgent)) {
          await presence.heartbeatGuest({ ...input, ip, userAgent });
        }
      }
      // after the limit: a refused heartbeat's page view counts nowhere
      noteView(req, input);
    }
    send(res, 200, OK_BODY, headers);
  }

  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const isUserPath = path === USER_PATH;
    if (req.method !== 'POST' || (!isUserPath && path !== GUEST_PATH)) {
      next();
      return;
    }
    // the only metrics work on this path: one increment of a pre-bound counter
    (isUserPath ? userHeartbeats : guestHeartbeats).inc();
    serve(req, res, isUserPath).catch((error: unknown) => {
      if (isClientGone(error, req)) {
        req.socket.destroy();
        return;
      }
      const httpError = toHttpError(error);
      if (httpError) {
        send(res, httpError.status, JSON.stringify(errorBody(httpError)), httpError.headers);
        return;
      }
      log.error({ err: error }, `${path} failed`);
      send(res, 500, JSON.stringify(errorBody(new HttpError('INTERNAL'))));
    });
  };
}
