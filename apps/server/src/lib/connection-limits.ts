import { type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { type ApiErrorCode, httpStatusCode } from '@portfolio/types/errors';

import { rateLimitAddress } from './client-address.js';
import { compileTrust, parseTrustProxy } from './proxy-trust.js';

export interface ConnectionLimits {
  /** Concurrent Socket.IO connections per client address (an IPv6 /64 is one); refused at the handshake. */
  socketsPerAddress: number;
  /** Concurrent TCP connections per directly connecting address that is not a trusted proxy. */
  connectionsPerAddress: number;
  /** Concurrent TCP connections in total: below the open-file limit. */
  maxConnections: number;
  /** Time allowed for a request's headers. */
  headersTimeoutMs: number;
  /** Time allowed for a whole request, body included. */
  requestTimeoutMs: number;
}

/**
 * Keeps one client from exhausting the process (its file handles above all):
 *
 * - `maxConnections`: TCP connections in total; beyond it Node closes new ones at once.
 * - `connectionsPerAddress`: TCP connections from one directly connecting address, except trusted
 *   proxies (behind nginx every client arrives from the proxy: there nginx's `limit_conn` and the
 *   per-client Socket.IO limit apply instead).
 * - headers must arrive within `headersTimeoutMs` (Node checks every second here, not every
 *   30 s), a whole request within `requestTimeoutMs`: a slow body is cut after seconds, and so
 *   is one still trickling in after an early answer (past MAX_DRAIN_BYTES sooner). Requests
 *   that `isLongUpload` names (a game build: hundreds of MB from a home connection) may take as
 *   long as they need while bytes keep coming: they are cut only after `requestTimeoutMs`
 *   without a byte. Node's own request timeout can make neither exception, so the body
 *   deadlines are kept here (`watchBody`).
 *
 * The per-address Socket.IO limit is `createSocketLimiter`, applied at the handshake.
 */
export function applyConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  trustProxy: string | undefined,
  options: { isLongUpload?: (req: IncomingMessage) => boolean } = {},
): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  const { isLongUpload } = options;
  // the body deadlines are kept here on every server (the games origin too), not by Node's
  // request timeout, which can neither exempt an upload nor bound a body after an early answer
  server.requestTimeout = 0;
  const watchLater = createDeferredWatch(limits.requestTimeoutMs);
  const watchRequest = (req: IncomingMessage, res: ServerResponse) => {
    watchLater(req, res, isLongUpload?.(req) ? 'idle' : 'total');
  };
  requestWatchers.set(server, { watchRequest, limitMs: limits.requestTimeoutMs });
  // ahead of the app, which rewrites req.url as it routes
  server.prependListener('request', watchRequest);
  server.on('clientError', answerClientError);
  const trust = compileTrust(parseTrustProxy(trustProxy));
  const perAddress = createSocketLimiter(limits.connectionsPerAddress);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || trust(address, 0)) {
      return;
    }
    if (!perAddress.allows(address)) {
      socket.destroy();
      return;
    }
    socket.once('close', perAddress.opened(address));
  });
}

/** Each limited server's request watcher (keepRequestDeadlinesFirst puts it back in front). */
const requestWatchers = new WeakMap<
  Server,
  { watchRequest: (req: IncomingMessage, res: ServerResponse) => void; limitMs: number }
>();

/**
 * Gives the requests Socket.IO's engine answers itself the body deadlines too, and upgrade
 * handshakes the same deadline. The engine, when it attaches, takes every 'request' listener off
 * the server and calls them only for requests that are not its own (a path under `enginePath`):
 * its polling requests (a body trickled after its early 400) were then watched by nothing and
 * held their connection for minutes. The watcher the engine took keeps watching the others, so
 * each request is watched once, with no per-request bookkeeping. An upgrade is handed its socket
 * and never reaches 'request': one not answered within the deadline is closed. Call it after the
 * engine attached (only a server with an 'upgrade' listener takes upgrades; the games origin has
 * none and answers them as requests).
 */
export function keepRequestDeadlinesFirst(server: Server, enginePath = '/socket.io/'): void {
  const watcher = requestWatchers.get(server);
  // no engine attached: the watcher is still the server's own listener and sees every request
  if (!watcher || server.listeners('request').includes(watcher.watchRequest)) {
    return;
  }
  const { watchRequest, limitMs } = watcher;
  // the engine's own test (engine.io's attach: the path's prefix of the raw URL)
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(enginePath)) {
      watchRequest(req, res);
    }
  });
  server.prependListener('upgrade', (_req: IncomingMessage, socket: Socket) => {
    const deadline = setTimeout(() => {
      // nothing written: neither the handshake's 101 nor a refusal came
      if (!socket.destroyed && socket.bytesWritten === 0) {
        socket.destroy();
      }
    }, limitMs).unref();
    socket.once('close', () => clearTimeout(deadline));
  });
}

/**
 * What a connection may still send after its request was answered before the body arrived (a
 * 415, 401 or 404 from a check ahead of the body): Node reads and discards the rest so the
 * connection can serve the next request, which is polite for a body that is nearly done and a
 * way to hold the connection for ever for one that trickles. Past this many bytes it is closed.
 */
const MAX_DRAIN_BYTES = 1024 * 1024;
/** How often a drain is checked: only while one lasts, so often enough to keep it near its bound. */
const DRAIN_CHECK_MS = 100;

type WatchMode = 'total' | 'idle';

interface PendingWatch {
  req: IncomingMessage;
  res: ServerResponse;
  startedAt: number;
  /** The socket's byte count at the 'request' event ('idle' measures progress from there). */
  bytesAtStart: number;
  mode: WatchMode;
}

/**
 * `watchBody`, armed only for requests whose body is still on its way once the bytes at hand are
 * parsed. Node emits 'request' as soon as the headers are read, before the body that came in the
 * same packet; by the next check phase (setImmediate) that body has been read. Nearly every
 * request (a heartbeat, a GET) is complete by then and needs no timer and no listener, which on
 * the heartbeat path were a tenth of its cost. The deadlines still count from the 'request' event.
 * An upload ('idle') is watched at once: it is rare, and its progress counts from that moment.
 */
function createDeferredWatch(limitMs: number) {
  // parallel lists, not an object per request: this runs on every request (heartbeats above all)
  let requests: IncomingMessage[] = [];
  let responses: ServerResponse[] = [];
  let startTimes: number[] = [];
  const armPending = () => {
    const batch = requests;
    const answers = responses;
    const times = startTimes;
    requests = [];
    responses = [];
    startTimes = [];
    for (let i = 0; i < batch.length; i++) {
      const req = batch[i];
      const res = answers[i];
      const startedAt = times[i];
      if (req && res && startedAt !== undefined && !req.complete && !req.socket.destroyed) {
        watchBody({ req, res, startedAt, bytesAtStart: 0, mode: 'total' }, limitMs);
      }
    }
  };
  return (req: IncomingMessage, res: ServerResponse, mode: WatchMode) => {
    if (mode === 'idle') {
      // an upload (rare): measured from the bytes read now, so armed at once
      watchBody(
        { req, res, startedAt: Date.now(), bytesAtStart: req.socket.bytesRead, mode },
        limitMs,
      );
      return;
    }
    if (requests.length === 0) {
      setImmediate(armPending);
    }
    requests.push(req);
    responses.push(res);
    startTimes.push(Date.now());
  };
}

/**
 * Cuts a request whose body has not arrived `limitMs` after its headers ('total'), or that sent
 * no byte for `limitMs` ('idle'), with the 408 Node would send. A request answered before its
 * body arrived is no longer waited for: its connection closes once the rest has not arrived
 * within the same deadline ('total'; `limitMs` after the answer for 'idle') or passes
 * MAX_DRAIN_BYTES. Only timers and the socket's byte count are used: the body stream itself is
 * left to the handler.
 */
function watchBody(watch: PendingWatch, limitMs: number): void {
  const { req, res, startedAt, mode } = watch;
  const isDone = () => req.complete || req.socket.destroyed;
  const expire = () => {
    if (isDone()) {
      return;
    }
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const body = JSON.stringify({
      error: { code: 'REQUEST_TIMEOUT' satisfies ApiErrorCode, message: CLIENT_ERROR_MESSAGE[408] },
    });
    res.writeHead(408, {
      Connection: 'close',
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body, () => req.socket.destroy());
  };
  const every = Math.min(1000, Math.max(50, limitMs / 4));
  // answered (or failed) while the body is still on its way: a bounded drain, then closed
  let stopWaiting = () => {};
  const onAnswered = () => {
    stopWaiting();
    if (isDone()) {
      return;
    }
    const drainFrom = req.socket.bytesRead;
    const drainUntil = mode === 'total' ? startedAt + limitMs : Date.now() + limitMs;
    // the socket's count: Node reads the rest itself (a 'data' listener would be removed)
    const drain = setInterval(() => {
      if (isDone()) {
        clearInterval(drain);
      } else if (req.socket.bytesRead - drainFrom > MAX_DRAIN_BYTES || Date.now() >= drainUntil) {
        clearInterval(drain);
        req.socket.destroy();
      }
    }, DRAIN_CHECK_MS).unref();
  };
  // answered before this watch was armed: drain from now
  if (res.closed) {
    onAnswered();
    return;
  }
  res.once('close', onAnswered);
  if (mode === 'total') {
    const timeout = setTimeout(expire, Math.max(0, startedAt + limitMs - Date.now())).unref();
    stopWaiting = () => clearTimeout(timeout);
    return;
  }
  let lastBytes = watch.bytesAtStart;
  let lastProgress = startedAt;
  const timer = setInterval(() => {
    if (isDone()) {
      clearInterval(timer);
      return;
    }
    const bytes = req.socket.bytesRead;
    if (bytes !== lastBytes) {
      lastBytes = bytes;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress >= limitMs) {
      clearInterval(timer);
      expire();
    }
  }, every).unref();
  stopWaiting = () => clearInterval(timer);
}

/**
 * Counts open connections (TCP, or Socket.IO at the handshake) per client address; `allows`
 * refuses past the limit.
 */
export function createSocketLimiter(limit: number) {
  const open = new Map<string, number>();
  return {
    /** Whether one more may open for this (client) address. */
    allows(address: string): boolean {
      return (open.get(rateLimitAddress(address)) ?? 0) < limit;
    },
    /** Counts an opened connection; returns the function that uncounts it. */
    opened(address: string): () => void {
      const key = rateLimitAddress(address);
      open.set(key, (open.get(key) ?? 0) + 1);
      let closed = false;
      return () => {
        if (closed) {
          return;
        }
        closed = true;
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) {
          open.delete(key);
        } else {
          open.set(key, left);
        }
      };
    },
  };
}

const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};
const CLIENT_ERROR_MESSAGE: Readonly<Record<number, string>> = {
  400: 'The request could not be read.',
  408: 'The request took too long to arrive.',
  431: 'The request headers are too large.',
};

/**
 * What Node does with a request it cannot parse or that timed out, made ours: a client that went
 * away (reset, or the connection ended mid-request) gets nothing; anything else the API's error
 * body, not Node's bare "400 Bad Request".
 */
function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Socket,
): void {
  const gone =
    error.code === 'ECONNRESET' ||
    error.code === 'HPE_INVALID_EOF_STATE' ||
    !socket.writable ||
    // a response has started on this connection: nothing can be added to it
    (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (gone) {
    socket.destroy();
    return;
  }
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  const code = httpStatusCode(status) ?? 'BAD_REQUEST';
  const body = JSON.stringify({
    error: { code, message: CLIENT_ERROR_MESSAGE[status] ?? 'The request could not be read.' },
  });
  // a HEAD request's answer has the headers only
  const isHead = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${isHead ? '' : body}`,
  );
}
