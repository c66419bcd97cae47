import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import {
  type ByteRange,
  isFolder,
  type ObjectInfo,
  type ObjectStorage,
  StorageUnavailableError,
} from './object-storage.js';

/*
 * Sends one stored object over bare node:http (the games origin, /media/): types, precompressed
 * siblings by Accept-Encoding, a build's own .br/.gz files (as their bytes, or with their
 * Content-Encoding where the engine's loader expects the browser to unpack them), single byte
 * ranges, ETag/Last-Modified and 304. Which key is asked for is the caller's business (a local
 * folder's links that lead out of the storage's folder are missing objects there).
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
  info: ObjectInfo | undefined;
  /** No object under the key, but objects under `key/`. */
  isFolder: boolean;
  /** Which precompressed siblings exist (<file>.br, <file>.gz) and their facts. */
  siblings: Partial<Record<Encoding, ObjectInfo>>;
  at: number;
}

/**
 * Facts of objects recently served. A version's files never change once live, so a few seconds
 * of caching saves three look-ups per request (three round trips on a bucket); the short lifetime
 * covers a game deleted and uploaded again under the same version number.
 */
/** undefined for StorageUnavailableError (the storage cannot answer now), else rethrows. */
function unlessUnavailable(error: unknown): undefined {
  if (error instanceof StorageUnavailableError) {
    return undefined;
  }
  throw error;
}

const FACTS_TTL_MS = 5000;
const FACTS_MAX = 5000;
const facts = new Map<string, FileFacts>();

async function factsOf(
  storage: ObjectStorage,
  key: string,
  withSiblings: boolean,
): Promise<FileFacts> {
  const now = Date.now();
  const cacheKey = `${storage.description}\0${key}`;
  const cached = facts.get(cacheKey);
  if (cached && now - cached.at < FACTS_TTL_MS) {
    return cached;
  }
  // a sibling the bucket cannot be asked about now is left out: the file itself (maybe a cached
  // copy, cached-storage.ts) is still served, uncompressed
  const sibling = (name: string) =>
    withSiblings ? storage.head(name).catch(unlessUnavailable) : undefined;
  const [info, br, gz] = await Promise.all([
    storage.head(key),
    sibling(key + '.br'),
    sibling(key + '.gz'),
  ]);
  const siblings: FileFacts['siblings'] = {};
  if (br) {
    siblings.br = br;
  }
  if (gz) {
    siblings.gzip = gz;
  }
  const fresh = { info, isFolder: !info && (await isFolder(storage, key)), siblings, at: now };
  if (facts.size >= FACTS_MAX) {
    facts.clear();
  }
  facts.set(cacheKey, fresh);
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
  /** Counts the bytes sent (the games origin's metric). */
  onBytesSent?: (bytes: number) => void;
}

function etagOf(info: ObjectInfo, encoding: string | undefined): string {
  return encoding ? `${info.etag.slice(0, -1)}-${encoding}"` : info.etag;
}

/** Seconds are what Last-Modified can say. */
const wholeSeconds = (date: Date) => Math.floor(date.getTime() / 1000) * 1000;

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') {
    return true;
  }
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

function isNotModified(req: IncomingMessage, etag: string, info: ObjectInfo): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return matchesEtag(ifNoneMatch, etag);
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && wholeSeconds(info.lastModified) <= since;
  }
  return false;
}

/** The one byte range asked for, 'unsatisfiable', or undefined to send the whole file. */
function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
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

function ifRangeHolds(req: IncomingMessage, etag: string, info: ObjectInfo): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') {
    return true;
  }
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) {
    return !ifRange.startsWith('W/') && ifRange.trim() === etag;
  }
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && wholeSeconds(info.lastModified) === date;
}

/**
 * Sends the object `key` of `storage` (GET or HEAD). Answers 'missing' (nothing sent) when there
 * is none, 'directory' when objects lie under `key/`, so the caller can answer 404 or redirect.
 */
export async function sendObject(
  req: IncomingMessage,
  res: ServerResponse,
  storage: ObjectStorage,
  key: string,
  options: SendFileOptions,
): Promise<SendResult> {
  const file = await factsOf(storage, key, options.negotiate);
  if (!file.info) {
    return file.isFolder ? 'directory' : 'missing';
  }
  const headers: OutgoingHttpHeaders = { ...options.headers };
  let type = contentTypeOf(key);
  let sendKey = key;
  let sent = file.info;
  let encoding: string | undefined;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);

  // a build's own X.wasm.br / X.data.gz, asked for by that name
  const prebuilt = ENCODINGS.find(({ suffix }) => key.toLowerCase().endsWith(suffix));
  if (prebuilt) {
    // Unity: the inner type with its encoding when the browser accepts it, else the bytes, which
    // Unity's loader decompresses itself
    if (options.decodePrebuilt) {
      headers.Vary = 'Accept-Encoding';
      if (accepted.has(prebuilt.name)) {
        type = contentTypeOf(key.slice(0, -prebuilt.suffix.length));
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
          sendKey = key + suffix;
          sent = sibling;
          encoding = name;
          headers['Content-Encoding'] = name;
          break;
        }
      }
    }
  }

  const etag = etagOf(file.info, encoding);
  headers['Content-Type'] = type;
  headers.ETag = etag;
  headers['Last-Modified'] = file.info.lastModified.toUTCString();
  headers['Cache-Control'] = options.cacheControl;
  if (isNotModified(req, etag, file.info)) {
    delete headers['Content-Type'];
    delete headers['Content-Encoding'];
    res.writeHead(304, headers);
    res.end();
    return 'sent';
  }

  let range: ByteRange | undefined;
  // ranges are served on the file itself (identity, or a prebuilt file's own bytes)
  headers['Accept-Ranges'] = 'bytes';
  if (sendKey === key && ifRangeHolds(req, etag, sent)) {
    const parsed = parseRange(req.headers.range, sent.size);
    if (parsed === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${sent.size}` });
      res.end();
      return 'sent';
    }
    range = parsed;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? sent.size - 1;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  if (range) {
    headers['Content-Range'] = `bytes ${start}-${end}/${sent.size}`;
  }
  if (req.method === 'HEAD' || sent.size === 0) {
    res.writeHead(range ? 206 : 200, headers);
    res.end();
    return 'sent';
  }
  const read = await storage.get(sendKey, range);
  if (!read) {
    // gone since its facts were read (a deleted version): forget them
    facts.delete(`${storage.description}\0${key}`);
    return 'missing';
  }
  res.writeHead(range ? 206 : 200, headers);
  try {
    await pipeline(read.body, res);
    options.onBytesSent?.(end - start + 1);
  } catch {
    // the client went away, or the object vanished mid-way: the connection is ended either way
    read.body.destroy();
    res.destroy();
  }
  return 'sent';
}
