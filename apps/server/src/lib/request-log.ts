import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';

import { logger, requestContext } from './logger.js';

/**
 * An incoming X-Request-Id (from the proxy, or a client's own) is kept when it looks like one:
 * letters, digits and dashes, 8 to 64 of them (a UUID, nginx's $request_id). Anything else
 * (`../../etc/passwd`, quotes, slashes) would be echoed and logged as given: a new id instead.
 */
const REQUEST_ID = /^[A-Za-z0-9-]{8,64}$/;

/** Probes and scrapes every few seconds: answered, never logged. */
const QUIET_PATHS = new Set(['/api/health', '/api/ready', '/metrics']);

/** Query values under these names are secrets or personal data (unsubscribe tokens, emails). */
const SECRET_QUERY_KEY = /token|secret|password|key|code|email|signature|grant|challenge/i;

/** The path and query of a request, with secret-looking query values replaced. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) {
    return url;
  }
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of new Set(params.keys())) {
    if (SECRET_QUERY_KEY.test(key)) {
      params.set(key, '[redacted]');
    }
  }
  const query = params.toString();
  return query ? `${url.slice(0, at)}?${query}` : url.slice(0, at);
}

/** The request's id: a valid incoming X-Request-Id, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

const pathOf = (url: string | undefined) => (url ?? '').split('?')[0] ?? '';

/**
 * The request log: one JSON line per answered request (method, path, status, time, request id,
 * the signed-in user's id), at error for a 5xx. The id is returned in `X-Request-Id` and carried
 * by every line written while the request runs (the logger's mixin reads `requestContext`).
 * No headers, cookies, addresses or bodies are logged.
 */
export function requestLogging(): RequestHandler {
  const http = pinoHttp<IncomingMessage, ServerResponse>({
    logger: logger.child({ module: 'http' }),
    // the id chosen below (requestIdOf), already on the request
    genReqId: (req) => req.id ?? requestIdOf(req),
    customAttributeKeys: { reqId: 'reqId' },
    quietReqLogger: true,
    autoLogging: { ignore: (req) => QUIET_PATHS.has(pathOf(req.url)) },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { originalUrl?: string }) => ({
        method: req.method,
        url: loggableUrl(req.originalUrl ?? req.url ?? ''),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customProps: (req) => {
      const userId = (req as IncomingMessage & { auth?: { user?: { id?: string } } }).auth?.user
        ?.id;
      return userId ? { userId } : {};
    },
    // a client that went away before its answer is no server error (client-gone.test.ts)
    customLogLevel: (_req, res, error) =>
      res.writableEnded && (error || res.statusCode >= 500) ? 'error' : 'info',
    customSuccessMessage: (req, res) =>
      `${req.method} ${pathOf((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url)} ${res.statusCode}`,
    customErrorMessage: (req, res) =>
      `${req.method} ${pathOf((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url)} ${res.statusCode}`,
  });
  return (req, res, next) => {
    const reqId = requestIdOf(req);
    req.id = reqId;
    res.setHeader('X-Request-Id', reqId);
    http(req, res);
    requestContext.run({ reqId }, next);
  };
}
