import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import type { Config } from '../../config.js';
import { applyConnectionLimits } from '../../lib/connection-limits.js';
import { createGracefulClose } from '../../lib/graceful-close.js';
import { gamesOriginBytes } from '../../lib/metrics.js';
import { createLocalStorage } from '../../lib/storage/local-storage.js';
import { type ObjectStorage, StorageUnavailableError } from '../../lib/storage/object-storage.js';
import { isHtml, sendObject } from '../../lib/storage/send-object.js';
import type { GameGrants } from './grants.js';
import { type GameHostCatalogue, type HostedGame, versionPrefix } from './layout.js';
import { siteOriginsFor, webSocketOriginOf } from './origin.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('games-origin');

/*
 * The games origin: a bare node:http server, apart from the site, that serves
 * uploaded builds and nothing else. No cookie is read or set here, and there is no API.
 *
 *   /<gameId>/<version>/<path>             a public game's files
 *   /g/<grant>/<gameId>/<version>/<path>   a subscriber game's files (grant from grants.ts)
 *   /<gameId>/thumbnail.<png|jpg|webp>     the uploaded card image
 *   /sdk.js                                packages/games/sdk.js
 *   anything else                          404
 *
 * The catalogue says which versions of which games may be served (an unpublished game: none)
 * and which need cross-origin isolation. Paths never leave the version's folder: each segment
 * is decoded once and refused if it is empty, `.`/`..`, a dotfile, or holds a slash, a
 * backslash or NUL; a link on disk that leads out of the version's folder is not followed.
 */

export interface GamesServerOptions {
  config: Pick<Config, 'port' | 'publicOrigin' | 'gamesHost'>;
  catalogue: GameHostCatalogue;
  grants: GameGrants;
  /** packages/games/sdk.js. */
  sdkPath: string;
  /** Where builds and thumbnails are kept (GAMES_DIR, or the bucket's games/ prefix). */
  storage: ObjectStorage;
}

const VERSION_FILE_CACHE = 'public, max-age=31536000, immutable';
/** A subscriber game's files: the same, but only in the player's own browser cache. */
const GRANTED_FILE_CACHE = 'private, max-age=31536000, immutable';
const GRANTED_PAGE_CACHE = 'private, no-cache';
const SHORT_CACHE = 'public, max-age=300';
const VERSION = /^[1-9]\d{0,8}$/;
const GAME_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const THUMBNAIL = /^thumbnail\.(png|jpg|webp)$/;
/**
 * A Unity build's own compressed file (`Build/x.wasm.br`, `Build/x.data.gz`): Unity documents
 * serving these with Content-Encoding and the uncompressed type. Its `.unityweb` files (2017–2019,
 * and 2020+ with decompression fallback) are sent as bytes: the loader unpacks them itself.
 */
const UNITY_BUILD_FILE = /(^|\/)Build\/[^/]+\.(br|gz)$/;

/**
 * The games origin's CSP. The origin is already apart from the site (no cookie, no API), so the
 * policy's job is to keep games framed by the site only, not to stop them loading what real
 * exports load: engines' inline start-up scripts, eval, WebAssembly, blob: workers, libraries
 * and fonts from public CDNs (Phaser, jQuery, Prism) over https:, analytics and their own
 * servers over https:/wss: (Unity's config.uca.cloud.unity3d.com). Plugins and <base> stay off.
 */
export function gamesContentSecurityPolicy(siteOrigins: readonly string[]): string {
  const site = siteOrigins.join(' ');
  const sockets = siteOrigins.map(webSocketOriginOf).join(' ');
  return [
    "default-src 'self'",
    // the site's origins: the multiplayer demo games load socket.io.js from the site (http: in
    // development, so named as well as https:)
    `script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data: https: ${site}`,
    "worker-src 'self' blob: data: https:",
    "style-src 'self' 'unsafe-inline' blob: data: https:",
    "img-src 'self' data: blob: https:",
    "media-src 'self' data: blob: https:",
    "font-src 'self' data: https:",
    `connect-src 'self' data: blob: https: wss: ${site} ${sockets}`,
    `frame-ancestors ${site}`,
    "object-src 'none'",
    "base-uri 'self'",
  ].join('; ');
}

/** Splits a request's path into decoded segments, or undefined when it is not a safe path. */
export function safeSegments(url: string | undefined): string[] | undefined {
  if (!url?.startsWith('/')) {
    return undefined;
  }
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  if (raw.includes('\\') || raw.includes('\0')) {
    return undefined;
  }
  const parts = raw.slice(1).split('/');
  const segments: string[] = [];
  for (const [index, part] of parts.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    const isLast = index === parts.length - 1;
    // a trailing slash leaves one empty last segment (a folder's index); empty elsewhere: refused
    if (decoded === '' && !isLast) {
      return undefined;
    }
    if (
      decoded.startsWith('.') ||
      decoded.includes('/') ||
      decoded.includes('\\') ||
      decoded.includes('\0')
    ) {
      return undefined;
    }
    segments.push(decoded);
  }
  return segments;
}

function answerText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders,
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** What the games origin's handler works with: made once per server, shared by every request. */
interface GamesOrigin {
  options: GamesServerOptions;
  /** The SDK's folder (packages/games), served from disk whatever the storage. */
  sdk: ObjectStorage;
  /** The CSP for the site's origins, which depend on the port it listens on (known once it listens). */
  cspFor: { key: string; csp: string } | undefined;
}

function baseHeaders(origin: GamesOrigin): OutgoingHttpHeaders {
  const { config } = origin.options;
  const key = `${config.publicOrigin ?? ''}|${config.port}`;
  if (origin.cspFor?.key !== key) {
    origin.cspFor = { key, csp: gamesContentSecurityPolicy(siteOriginsFor(config)) };
  }
  return {
    'Content-Security-Policy': origin.cspFor.csp,
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
  };
}

const countBytes = (bytes: number) => gamesOriginBytes.inc(bytes);

/** Sends a folder's address with its trailing slash, which the game's relative URLs need. */
function redirectToFolder(req: IncomingMessage, res: ServerResponse, headers: OutgoingHttpHeaders) {
  const url = req.url ?? '/';
  const end = url.search(/[?#]/);
  const pathname = end === -1 ? url : url.slice(0, end);
  res.writeHead(301, {
    ...headers,
    Location: `${pathname}/${end === -1 ? '' : url.slice(end)}`,
    'Cache-Control': 'no-store',
    'Content-Length': 0,
  });
  res.end();
}

/** A small file that changes in place (the SDK, a thumbnail): short cache, or 404. */
async function sendShortLived(
  req: IncomingMessage,
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  storage: ObjectStorage,
  key: string,
): Promise<void> {
  const result = await sendObject(req, res, storage, key, {
    cacheControl: SHORT_CACHE,
    headers,
    negotiate: false,
    onBytesSent: countBytes,
  });
  if (result !== 'sent') {
    answerText(res, 404, 'Not found', headers);
  }
}

async function serveVersionFile(
  origin: GamesOrigin,
  req: IncomingMessage,
  res: ServerResponse,
  game: HostedGame,
  gameId: string,
  version: number,
  rest: string[],
  isGranted: boolean,
): Promise<void> {
  const headers = baseHeaders(origin);
  let relative = rest.join('/');
  if (relative === '' || relative.endsWith('/')) {
    relative += 'index.html';
  }
  if (game.needsThreads) {
    // threads need SharedArrayBuffer: cross-origin isolation in the frame (and on its own page)
    headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    if (isHtml(relative)) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
    }
  }
  // the version's own scope: a link in one version's folder never reaches another's files
  const storage = origin.options.storage.scoped(versionPrefix(gameId, version));
  const result = await sendObject(req, res, storage, relative, {
    // a granted page is checked again on every load, so an expired grant opens nothing
    cacheControl: isGranted
      ? isHtml(relative)
        ? GRANTED_PAGE_CACHE
        : GRANTED_FILE_CACHE
      : VERSION_FILE_CACHE,
    headers,
    negotiate: true,
    decodePrebuilt: game.engines[version] === 'unity' && UNITY_BUILD_FILE.test(relative),
    onBytesSent: countBytes,
  });
  if (result === 'directory') {
    redirectToFolder(req, res, headers);
  } else if (result === 'missing') {
    answerText(res, 404, 'Not found', headers);
  }
}

async function handleGamesRequest(
  origin: GamesOrigin,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { catalogue, grants } = origin.options;
  const headers = baseHeaders(origin);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    answerText(res, 405, 'Method not allowed', { ...headers, Allow: 'GET, HEAD' });
    return;
  }
  const segments = safeSegments(req.url);
  if (!segments) {
    answerText(res, 404, 'Not found', headers);
    return;
  }
  if (segments.length === 1 && segments[0] === 'sdk.js') {
    await sendShortLived(req, res, headers, origin.sdk, path.basename(origin.options.sdkPath));
    return;
  }
  let isGranted = false;
  let grant: string | undefined;
  let rest = segments;
  if (segments[0] === 'g' && segments.length >= 4) {
    isGranted = true;
    grant = segments[1];
    rest = segments.slice(2);
  }
  const [gameId = '', second = '', ...files] = rest;
  const game = GAME_ID.test(gameId) ? catalogue.find(gameId) : undefined;
  if (!game) {
    answerText(res, 404, 'Not found', headers);
    return;
  }
  if (!isGranted && files.length === 0 && THUMBNAIL.test(second)) {
    await sendShortLived(req, res, headers, origin.options.storage.scoped(`${gameId}/`), second);
    return;
  }
  if (!VERSION.test(second)) {
    answerText(res, 404, 'Not found', headers);
    return;
  }
  const version = Number(second);
  const isServable =
    game.liveVersion !== null && (version === game.liveVersion || game.versions.includes(version));
  if (!isServable) {
    answerText(res, 404, 'Not found', headers);
    return;
  }
  // a page (the folder's index too) needs a grant fresh from the viewer; other files a running
  // game asks for later are served a while longer (grants.ts)
  const last = files.at(-1) ?? '';
  const isPage = last === '' || isHtml(last);
  if (isGranted ? !grants.verify(grant ?? '', gameId, { isPage }) : game.access === 'subscriber') {
    answerText(res, 403, 'This game is for subscribers.', headers);
    return;
  }
  if (files.length === 0) {
    // /<gameId>/<version>: the folder, with its slash
    redirectToFolder(req, res, headers);
    return;
  }
  await serveVersionFile(origin, req, res, game, gameId, version, files, isGranted);
}

/** The request handler of the games origin. */
export function createGamesRequestHandler(options: GamesServerOptions) {
  const origin: GamesOrigin = {
    options,
    sdk: createLocalStorage(path.dirname(options.sdkPath)),
    cspFor: undefined,
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    handleGamesRequest(origin, req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof StorageUnavailableError) {
        // the bucket is away: the player may simply reload in a moment
        log.warn({ reason: error.message }, 'storage unavailable');
        answerText(res, 503, 'Storage unavailable, please try again', {
          ...baseHeaders(origin),
          'Retry-After': '5',
        });
        return;
      }
      log.error({ err: error }, 'request failed');
      answerText(res, 500, 'Internal error', baseHeaders(origin));
    });
  };
}

export interface GamesServer {
  server: Server;
  /** Listens on config.gamesHost.port (writing the bound port back when it was 0). */
  listen(host: string): Promise<number>;
  /** Stops accepting and lets running downloads finish (cut after hardLimitMs). */
  close(hardLimitMs?: number): Promise<void>;
}

/** The games origin's HTTP server, with the site's connection limits and graceful close. */
export function createGamesServer(
  options: GamesServerOptions & { config: Pick<Config, 'connections' | 'trustProxy'> },
): GamesServer {
  const server = createServer(
    { connectionsCheckingInterval: 1000 },
    createGamesRequestHandler(options),
  );
  server.keepAliveTimeout = 65_000;
  applyConnectionLimits(server, options.config.connections, options.config.trustProxy);
  const graceful = createGracefulClose(server);
  let closing: Promise<void> | undefined;
  return {
    server,
    async listen(host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.config.gamesHost.port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const port = (server.address() as AddressInfo).port;
      options.config.gamesHost.port = port;
      return port;
    },
    close(hardLimitMs = 8000) {
      closing ??= server.listening ? graceful.close(hardLimitMs) : Promise.resolve();
      return closing;
    },
  };
}
