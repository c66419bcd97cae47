import { createReadStream, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { gamesOriginBytes } from '../../lib/metrics.js';

/*
 * Sends one file over bare node:http (the games origin): types, precompressed
 * siblings by Accept-Encoding, a build's own .br/.gz files (as their bytes, or with their
 * Content-Encoding where the engine's loader expects the browser to unpack them), single byte
 * ranges, ETag/Last-Modified and 304. Which path is asked for is the caller's business; given
 * `within`, a file (or sibling) that resolves outside that folder through a link is missing.
 */

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
  '.pck': 'application/octet-stream',
  '.data': 'application/octet-stream',
  '.mem': 'application/octet-stream',
  '.unityweb': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.flac': 'audio/flac',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
};

/** The Content-Type of a file by its extension (binary when unknown). */
export function contentTypeOf(filePath: string): string {
  return TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export function isHtml(filePath: string): boolean {
  const ext = path.extname(filePath).toLowerCase();
  return ext === '.html' || ext === '.htm';
}

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];

/** The encodings an Accept-Encoding header accepts (q > 0). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  if (!header) {
    return accepted;
  }
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    if (q !== undefined && Number(q) === 0) {
      continue;
    }
    const name = token.trim().toLowerCase();
    if (name === '*') {
      accepted.add('br').add('gzip');
    } else if (name) {
      accepted.add(name === 'x-gzip' ? 'gzip' : name);
    }
  }
  return accepted;
}

interface FileFacts {
  stats: Stats | undefined;
  /** Which precompressed siblings exist (<file>.br, <file>.gz) and their stats. */
  siblings: Partial<Record<Encoding, Stats>>;
  at: number;
}

/**
 * Stats of files recently served. A version's files never change once live, so a few seconds of
 * caching saves three stat calls per request; the short lifetime covers a game deleted and
 * uploaded again under the same version number.
 */
const FACTS_TTL_MS = 5000;
const FACTS_MAX = 5000;
const facts = new Map<string, FileFacts>();

/**
 * A file's stats, or undefined when it is missing or, with `within` (a folder's real path), when
 * it resolves outside that folder: a link planted in a build (by hand, or by an old restore)
 * must not serve /etc/passwd. Links that stay inside are followed.
 */
async function statOrUndefined(filePath: string, within?: string): Promise<Stats | undefined> {
  try {
    if (within !== undefined && !(await realpath(filePath)).startsWith(within + path.sep)) {
      return undefined;
    }
    return await stat(filePath);
  } catch {
    return undefined;
  }
}

async function factsOf(
  filePath: string,
  withSiblings: boolean,
  within: string | undefined,
): Promise<FileFacts> {
  const now = Date.now();
  const cached = facts.get(filePath);
  if (cached && now - cached.at < FACTS_TTL_MS) {
    return cached;
  }
  const root = within === undefined ? undefined : await realpath(within).catch(() => undefined);
  if (within !== undefined && root === undefined) {
    return { stats: undefined, siblings: {}, at: now };
  }
  const [stats, br, gz] = await Promise.all([
    statOrUndefined(filePath, root),
    withSiblings ? statOrUndefined(filePath + '.br', root) : undefined,
    withSiblings ? statOrUndefined(filePath + '.gz', root) : undefined,
  ]);
  const siblings: FileFacts['siblings'] = {};
  if (br?.isFile()) {
    siblings.br = br;
  }
  if (gz?.isFile()) {
    siblings.gzip = gz;
  }
  const fresh = { stats, siblings, at: now };
  if (facts.size >= FACTS_MAX) {
    facts.clear();
  }
  facts.set(filePath, fresh);
  return fresh;
}

export type SendResult = 'sent' | 'missing' | 'directory';

export interface SendFileOptions {
  /** Cache-Control of the answer (200, 206 and 304 alike). */
  cacheControl: string;
  /** Headers every answer carries (CSP, CORP, COEP…). */
  headers: OutgoingHttpHeaders;
  /** Serve <file>.br / <file>.gz siblings by Accept-Encoding. */
  negotiate: boolean;
  /**
   * A file asked for by its own `.br`/`.gz` name is the build's own: sent with its
   * Content-Encoding and the inner file's type when true (Unity's `Build/*.br|gz`, which
   * Unity's loader expects the browser to unpack); else as those very bytes, for the page to
   * unpack itself (Godot 3 CI builds inflate `index.wasm.gz` with pako).
   */
  decodePrebuilt?: boolean;
  /** The folder the file must stay in once links are resolved (else it is 'missing'). */
  within?: string;
}

function etagOf(stats: Stats, encoding: string | undefined): string {
  const base = `${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}`;
  return `"${base}${encoding ? `-${encoding}` : ''}"`;
}

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') {
    return true;
  }
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

function isNotModified(req: IncomingMessage, etag: string, stats: Stats): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return matchesEtag(ifNoneMatch, etag);
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(stats.mtimeMs / 1000) * 1000 <= since;
  }
  return false;
}

/** The one byte range asked for, 'unsatisfiable', or undefined to send the whole file. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) {
    return undefined;
  }
  const match = /^bytes=\s*(\d*)-(\d*)\s*$/.exec(header);
  if (!match) {
    // several ranges or another unit: the whole file (allowed by RFC 9110)
    return undefined;
  }
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') {
    return undefined;
  }
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) {
      return 'unsatisfiable';
    }
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== '' && Number(to) < start) {
      return undefined;
    }
  }
  if (start >= size || size === 0) {
    return 'unsatisfiable';
  }
  return { start, end };
}

function ifRangeHolds(req: IncomingMessage, etag: string, stats: Stats): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') {
    return true;
  }
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) {
    return !ifRange.startsWith('W/') && ifRange.trim() === etag;
  }
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(stats.mtimeMs / 1000) * 1000 === date;
}

/**
 * Sends `filePath` (GET or HEAD). Answers 'missing' (nothing sent) when it is not a file,
 * 'directory' when it is a folder, so the caller can answer 404 or redirect.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  filePath: string,
  options: SendFileOptions,
): Promise<SendResult> {
  const file = await factsOf(filePath, options.negotiate, options.within);
  if (!file.stats) {
    return 'missing';
  }
  if (file.stats.isDirectory()) {
    return 'directory';
  }
  if (!file.stats.isFile()) {
    return 'missing';
  }
  const headers: OutgoingHttpHeaders = { ...options.headers };
  let type = contentTypeOf(filePath);
  let sendPath = filePath;
  let stats = file.stats;
  let encoding: string | undefined;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);

  // a build's own X.wasm.br / X.data.gz, asked for by that name
  const prebuilt = ENCODINGS.find(({ suffix }) => filePath.toLowerCase().endsWith(suffix));
  if (prebuilt) {
    // Unity: the inner type with its encoding when the browser accepts it, else the bytes, which
    // Unity's loader decompresses itself
    if (options.decodePrebuilt) {
      headers.Vary = 'Accept-Encoding';
      if (accepted.has(prebuilt.name)) {
        type = contentTypeOf(filePath.slice(0, -prebuilt.suffix.length));
        encoding = prebuilt.name;
        headers['Content-Encoding'] = prebuilt.name;
      }
    }
  } else if (options.negotiate && (file.siblings.br || file.siblings.gzip)) {
    headers.Vary = 'Accept-Encoding';
    // ranges are on the identity bytes: a range request gets the file itself
    if (req.headers.range === undefined) {
      for (const { name, suffix } of ENCODINGS) {
        const sibling = file.siblings[name];
        if (sibling && accepted.has(name)) {
          sendPath = filePath + suffix;
          stats = sibling;
          encoding = name;
          headers['Content-Encoding'] = name;
          break;
        }
      }
    }
  }

  const etag = etagOf(file.stats, encoding);
  headers['Content-Type'] = type;
  headers.ETag = etag;
  headers['Last-Modified'] = file.stats.mtime.toUTCString();
  headers['Cache-Control'] = options.cacheControl;
  if (isNotModified(req, etag, file.stats)) {
    delete headers['Content-Type'];
    delete headers['Content-Encoding'];
    res.writeHead(304, headers);
    res.end();
    return 'sent';
  }

  let range: { start: number; end: number } | undefined;
  // ranges are served on the file itself (identity, or a prebuilt file's own bytes)
  headers['Accept-Ranges'] = 'bytes';
  if (sendPath === filePath && ifRangeHolds(req, etag, stats)) {
    const parsed = parseRange(req.headers.range, stats.size);
    if (parsed === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${stats.size}` });
      res.end();
      return 'sent';
    }
    range = parsed;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? stats.size - 1;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  if (range) {
    headers['Content-Range'] = `bytes ${start}-${end}/${stats.size}`;
  }
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || stats.size === 0) {
    res.end();
    return 'sent';
  }
  try {
    await pipeline(createReadStream(sendPath, { start, end }), res);
    gamesOriginBytes.inc(end - start + 1);
  } catch {
    // the client went away, or the file vanished mid-way: the connection is ended either way
    res.destroy();
  }
  return 'sent';
}
