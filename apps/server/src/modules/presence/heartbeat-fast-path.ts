import type { IncomingMessage, ServerResponse } from 'node:http';

import type { HeartbeatRequest } from '@portfolio/types';

import type { Config } from '../../config.js';
import {
  HttpError,
  errorBody,
  isClientGone,
  toHttpError,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.js';
import { rateLimitAddress } from '../../lib/client-address.js';
import { countHeartbeat } from '../../lib/metrics.js';
import { type RequestOrigin, createRequestOrigin } from '../../lib/proxy-trust.js';
import { createMemoryRateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { isKnownBot } from '../../lib/known-bots.js';
import { checkSameOrigin } from '../../lib/security.js';
import {
  type CookieSession,
  type SessionCookies,
  type SessionService,
  createSessionCookies,
  resolveSessionCookie,
  resolveSessionCookieNow,
} from '../auth/index.js';
import type { Collector } from '../analytics/index.js';
import type { PresenceService } from './service.js';
import { parseHeartbeatBody } from './heartbeat-body.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('heartbeat');

const USER_PATH = '/api/auth/heartbeat';
const GUEST_PATH = '/api/anonymous-heartbeat';
/** A heartbeat is a page path and a visitor id: far below this. */
const MAX_BODY_BYTES = 4096;
const OK_BODY = JSON.stringify({ ok: true });
const NO_HEADERS: Readonly<Record<string, string | string[]>> = Object.freeze({});
const ALREADY_DONE: Promise<void> = Promise.resolve();
const JSON_TYPE = 'application/json; charset=utf-8';
/** The ok answer's headers, made once (a flat list: Node takes it as it is, no object per answer). */
const OK_HEADERS = [
  'Content-Type',
  JSON_TYPE,
  'Content-Length',
  String(Buffer.byteLength(OK_BODY)),
  'Cache-Control',
  'no-store',
  'X-Content-Type-Options',
  'nosniff',
];

/** Writes a JSON answer with the headers every API answer carries. */
function send(
  res: ServerResponse,
  status: number,
  body: string,
  extra: Readonly<Record<string, string | string[]>> = NO_HEADERS,
) {
  if (status === 200 && body === OK_BODY && extra === NO_HEADERS) {
    res.writeHead(200, OK_HEADERS);
    res.end(OK_BODY);
    return;
  }
  res.writeHead(status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

/** What the body reader hands over: the text, or the error that ended the body. */
type BodyDone = (
  req: IncomingMessage,
  res: ServerResponse,
  isUserPath: boolean,
  text: string,
  error?: unknown,
) => void;

/** A heartbeat's body on its way (kept on the request: the listeners are made once, not per request). */
interface PendingBody {
  res: ServerResponse;
  isUserPath: boolean;
  first: Buffer | undefined;
  chunks: Buffer[] | undefined;
  size: number;
  done: BodyDone | undefined;
}
const BODY = Symbol('heartbeat body');
type ReadingRequest = IncomingMessage & { [BODY]?: PendingBody };

function settleBody(req: ReadingRequest, text: string, error?: unknown) {
  const pending = req[BODY];
  const done = pending?.done;
  if (pending && done) {
    pending.done = undefined;
    pending.first = undefined;
    pending.chunks = undefined;
    done(req, pending.res, pending.isUserPath, text, error);
  }
}
function onBodyData(this: ReadingRequest, chunk: Buffer) {
  const pending = this[BODY];
  if (!pending?.done) {
    return;
  }
  pending.size += chunk.length;
  if (pending.size > MAX_BODY_BYTES) {
    settleBody(this, '', new HttpError('PAYLOAD_TOO_LARGE', 'Request body is too large'));
    this.resume();
    return;
  }
  if (pending.first === undefined) {
    pending.first = chunk;
  } else {
    (pending.chunks ??= [pending.first]).push(chunk);
  }
}
function onBodyEnd(this: ReadingRequest) {
  const pending = this[BODY];
  if (pending) {
    const { first, chunks } = pending;
    settleBody(
      this,
      chunks ? Buffer.concat(chunks).toString('utf8') : (first?.toString('utf8') ?? ''),
    );
  }
}
function onBodyError(this: ReadingRequest, error: Error) {
  settleBody(this, '', error);
}
// cut off before the end: settled as an error that is answered with nothing
function onBodyClose(this: ReadingRequest) {
  if (!this.complete) {
    settleBody(this, '', Object.assign(new Error('client went away'), { code: 'ECONNABORTED' }));
  }
}

/**
 * Hands the body as text to `done`, or the error that ended it (refused past MAX_BODY_BYTES, or
 * the client going away), once. Listeners made once for every request: this runs on every
 * heartbeat.
 */
function readBody(
  req: ReadingRequest,
  res: ServerResponse,
  isUserPath: boolean,
  done: BodyDone,
): void {
  req[BODY] = { res, isUserPath, first: undefined, chunks: undefined, size: 0, done };
  req.on('data', onBodyData);
  req.on('end', onBodyEnd);
  req.on('error', onBodyError);
  req.on('close', onBodyClose);
}

/** The request's origin facts as checkSameOrigin reads them, or its refusal. */
function refusal(
  req: IncomingMessage,
  requestOrigin: RequestOrigin,
  allowedOrigins: readonly string[],
): HttpError | undefined {
  const { headers } = req;
  return checkSameOrigin(
    {
      method: 'POST',
      // read only when there is an Origin to compare it with
      protocol: headers.origin === undefined ? '' : requestOrigin.protocol(req),
      host: headers.host,
      origin: headers.origin,
      secFetchSite: headers['sec-fetch-site'],
      contentType: headers['content-type'],
      contentLength: headers['content-length'],
      transferEncoding: headers['transfer-encoding'],
    },
    allowedOrigins,
  );
}

/**
 * A stale cookie: forget it so the browser stops sending it; a planted partitioned copy beside
 * the real one: forget that one only (as the session middleware does). The request's protocol
 * is read only then: a signed-in heartbeat does not pay for it.
 */
function cookieHeaders(
  req: IncomingMessage,
  resolved: CookieSession,
  cookies: SessionCookies,
  requestOrigin: RequestOrigin,
) {
  if (resolved.session !== null) {
    return NO_HEADERS;
  }
  if (resolved.isStale) {
    return { 'Set-Cookie': cookies.clearingHeader(requestOrigin.protocol(req) === 'https') };
  }
  if (resolved.isConflict) {
    return {
      'Set-Cookie': cookies.plantedClearingHeader(requestOrigin.protocol(req) === 'https'),
    };
  }
  return NO_HEADERS;
}

/** The answer to a refusal or a failure (nothing for a client that went away). */
function fail(req: IncomingMessage, res: ServerResponse, isUserPath: boolean, error: unknown) {
  if (isClientGone(error, req)) {
    req.socket.destroy();
    return;
  }
  const httpError = toHttpError(error);
  if (httpError) {
    send(res, httpError.status, JSON.stringify(errorBody(httpError)), httpError.headers);
    return;
  }
  log.error({ err: error }, `${isUserPath ? USER_PATH : GUEST_PATH} failed`);
  send(res, 500, JSON.stringify(errorBody(new HttpError('INTERNAL'))));
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
 * @returns a request listener that hands everything it does not serve to `next` (the app)
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
  const limitUser = (userId: string) => {
    const retryAfter = userLimiter.hit(`user:${userId}`, deps.userHeartbeatLimit);
    if (retryAfter > 0) {
      throw tooManyRequests(
        'Too many heartbeats from this account. Please try again later.',
        retryAfter,
      );
    }
  };
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

  /**
   * The heartbeat once its body and session are known: the presence write's promise (the only
   * asynchronous step, memory or Redis), after which the answer is sent. Refusals are thrown.
   */
  function serve(
    req: IncomingMessage,
    res: ServerResponse,
    isUserPath: boolean,
    text: string,
    resolved: CookieSession,
  ): Promise<void> {
    const { session } = resolved;
    const headers = cookieHeaders(req, resolved, cookies, requestOrigin);
    if (isUserPath) {
      if (!session) {
        const required = unauthorized();
        throw new HttpError(required.code, { message: required.message, headers });
      }
      const input = parseHeartbeatBody(text, true);
      limitUser(session.user.id);
      noteView(req, input);
      return presence.heartbeatUser(session.user, input).then(() => {
        send(res, 200, OK_BODY, headers);
      });
    }
    const input = parseHeartbeatBody(text, false);
    // a tab that has not noticed its login yet still belongs to the user, not to a new guest
    if (session) {
      limitUser(session.user.id);
      return presence.heartbeatUser(session.user, input).then(() => {
        noteView(req, input);
        send(res, 200, OK_BODY, headers);
      });
    }
    const ip = requestOrigin.clientAddress(req);
    const retryAfter = guestLimiter.hit(rateLimitAddress(ip), deps.guestHeartbeatLimit);
    if (retryAfter > 0) {
      throw tooManyRequests(
        'Too many heartbeats from this address. Please try again later.',
        retryAfter,
      );
    }
    const userAgent = req.headers['user-agent'];
    // a crawler that runs scripts (Googlebot) is no visitor: Live Activity leaves it out,
    // while analytics counts its page view as a bot's (after the limit: a refused heartbeat's
    // page view counts nowhere)
    if (isKnownBot(userAgent)) {
      noteView(req, input);
      send(res, 200, OK_BODY, headers);
      return ALREADY_DONE;
    }
    const { currentPage, visitorId, game, tab } = input;
    return presence
      .heartbeatGuest({ currentPage, visitorId, game, tab, ip, userAgent })
      .then(() => {
        noteView(req, input);
        send(res, 200, OK_BODY, headers);
      });
  }

  /** The body has arrived: the session from memory (a query only when memory cannot say). */
  function serveBody(req: IncomingMessage, res: ServerResponse, isUserPath: boolean, text: string) {
    const cookie = req.headers.cookie;
    const known = resolveSessionCookieNow(sessions, cookies.names, cookie);
    if (known !== undefined) {
      return serve(req, res, isUserPath, text, known);
    }
    return resolveSessionCookie(sessions, cookies.names, cookie).then((resolved) =>
      serve(req, res, isUserPath, text, resolved),
    );
  }

  /** The body has arrived, or failed (made once: what it needs rides on the request). */
  const onBody: BodyDone = (req, res, isUserPath, text, error) => {
    if (error !== undefined) {
      fail(req, res, isUserPath, error);
      return;
    }
    try {
      serveBody(req, res, isUserPath, text).catch((failure: unknown) => {
        fail(req, res, isUserPath, failure);
      });
    } catch (failure) {
      fail(req, res, isUserPath, failure);
    }
  };

  return (
    req: IncomingMessage,
    res: ServerResponse,
    next: (req: IncomingMessage, res: ServerResponse) => void,
  ): void => {
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const isUserPath = path === USER_PATH;
    if (req.method !== 'POST' || (!isUserPath && path !== GUEST_PATH)) {
      next(req, res);
      return;
    }
    // the only metrics work on this path: one increment of a plain number
    countHeartbeat(isUserPath);
    const refused = refusal(req, requestOrigin, allowedOrigins);
    if (refused) {
      req.resume();
      fail(req, res, isUserPath, refused);
      return;
    }
    readBody(req, res, isUserPath, onBody);
  };
}
