import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// zlib's crc32 is native (Node 20.15+; the engines field asks for 20.19)
import { crc32 } from 'node:zlib';

import yauzl, { type Entry, type ZipFile } from 'yauzl';

import { formatBytes } from '@portfolio/types/format';
import type { BuildRefusalCode } from '@portfolio/types/game-host';

import { HttpError } from '../../lib/errors.js';

/*
 * Receiving and unpacking a build upload. The zip streams to a file (a 500 MB build
 * never sits in memory), then every entry of its central directory is checked before a single
 * byte is unpacked: a refused upload leaves nothing behind and changes nothing live.
 */

/** A refused upload: 400 (413 for an upload over the size limit) with a stable code. */
export function refuseBuild(code: BuildRefusalCode, message: string): HttpError {
  if (code === 'PAYLOAD_TOO_LARGE') {
    // the rest of the body is not read: the connection closes after the answer
    return new HttpError(code, { message, headers: { Connection: 'close' } });
  }
  return new HttpError(code, message);
}

const MB = 1024 * 1024;

class ClientGone extends Error {
  readonly type = 'request.aborted';
}

/**
 * Streams a request body into `file` (created, never overwritten), at most `maxBytes` of it: a
 * declared Content-Length over the limit is refused before reading, a longer body when the limit
 * is crossed. Returns the number of bytes written.
 */
export async function receiveUpload(
  req: IncomingMessage,
  file: string,
  maxBytes: number,
): Promise<number> {
  const tooLarge = () =>
    refuseBuild(
      'PAYLOAD_TOO_LARGE',
      `The upload is larger than the limit of ${formatBytes(maxBytes)} (GAME_UPLOAD_MAX_BYTES).`,
    );
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw tooLarge();
  }
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const onClose = () => {
    if (!req.complete) {
      counter.destroy(new ClientGone('The client went away during the upload'));
    }
  };
  req.once('close', onClose);
  const written = pipeline(counter, createWriteStream(file, { flags: 'wx' }));
  req.pipe(counter);
  try {
    await written;
  } finally {
    req.off('close', onClose);
    req.unpipe(counter);
  }
  return received;
}

export interface ZipLimits {
  maxFiles: number;
  maxUnpackedBytes: number;
  /** The largest unpacked/packed ratio, for the whole zip and for any one large entry. */
  maxRatio: number;
}

export interface UnpackedFile {
  /** Relative to the build's root, '/'-separated. */
  path: string;
  size: number;
}

/** An entry's name as text: UTF-8 when flagged (or valid), else Latin-1. */
function entryName(entry: Entry): string {
  const raw: unknown = entry.fileName;
  if (typeof raw === 'string') {
    return raw;
  }
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  const isUtf8Flagged = (entry.generalPurposeBitFlag & 0x800) !== 0;
  const utf8 = bytes.toString('utf8');
  return isUtf8Flagged || !utf8.includes('\uFFFD') ? utf8 : bytes.toString('latin1');
}

/**
 * The longest file or folder name taken: Linux holds 255 bytes, and the `.br`/`.gz` copies made
 * beside a file (compress.ts) need three more.
 */
const MAX_NAME_BYTES = 252;
/**
 * The longest path inside a build. Linux refuses paths over 4,096 bytes whole (GAMES_DIR, the
 * version folder and the copies' suffix included); no engine's export comes near this.
 */
const MAX_PATH_BYTES = 1024;
/** The suffixes of the copies compress.ts may write beside a build's files. */
const COPY_SUFFIXES = ['.br', '.gz'] as const;

/** `name` for a message: quoted, and cut when long. */
function displayName(name: string): string {
  return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
}

/**
 * The entry's path inside the build, or a refusal: absolute paths, drive letters, `..` segments,
 * control characters and names or paths too long for the file system are refused; backslashes
 * (Windows zippers) become slashes.
 */
function safeRelativePath(name: string): string {
  const display = JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw refuseBuild(
      'UNSAFE_PATH',
      `The zip contains a file name with control characters: ${display}.`,
    );
  }
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    throw refuseBuild(
      'UNSAFE_PATH',
      `The zip contains an absolute path: ${display}. Paths must be relative to the build.`,
    );
  }
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw refuseBuild(
      'UNSAFE_PATH',
      `The zip contains a path that climbs out of the build (../): ${display}.`,
    );
  }
  const long = segments.find((segment) => Buffer.byteLength(segment) > MAX_NAME_BYTES);
  if (long !== undefined) {
    throw refuseBuild(
      'UNSAFE_PATH',
      `The zip contains a name longer than ${MAX_NAME_BYTES} bytes: ${displayName(long)}. Names of files and folders may be at most ${MAX_NAME_BYTES} bytes (the server writes .br and .gz copies beside files).`,
    );
  }
  const relative = segments.join('/');
  if (Buffer.byteLength(relative) > MAX_PATH_BYTES) {
    throw refuseBuild(
      'UNSAFE_PATH',
      `The zip contains a path longer than ${MAX_PATH_BYTES.toLocaleString('en-US')} bytes: ${displayName(relative)}. Shorten its folders' names or nest them less deeply.`,
    );
  }
  return relative;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function isSymlink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (error, zipfile) => {
        if (error) {
          reject(
            refuseBuild(
              'NOT_A_ZIP',
              'The upload is not a zip file. Upload the exported build as a .zip.',
            ),
          );
          return;
        }
        resolve(zipfile);
      },
    );
  });
}

/** Every entry of the central directory, read without unpacking anything. */
function readEntries(zipfile: ZipFile, maxEntries: number): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zipfile.on('entry', (entry: Entry) => {
      entries.push(entry);
      if (entries.length > maxEntries) {
        reject(tooManyFiles(maxEntries));
        return;
      }
      zipfile.readEntry();
    });
    zipfile.once('end', () => resolve(entries));
    zipfile.once('error', () =>
      reject(
        refuseBuild('NOT_A_ZIP', 'The zip file is damaged: its list of files cannot be read.'),
      ),
    );
    zipfile.readEntry();
  });
}

function tooManyFiles(maxFiles: number): HttpError {
  return refuseBuild(
    'TOO_MANY_FILES',
    `The zip holds more than ${maxFiles} files (GAME_ZIP_MAX_FILES).`,
  );
}

export interface PlannedFile {
  entry: Entry;
  path: string;
}

/** Checks every entry and says what to unpack, or throws the refusal. */
function planUnpack(entries: readonly Entry[], zipSize: number, limits: ZipLimits): PlannedFile[] {
  const planned: PlannedFile[] = [];
  const files = new Set<string>();
  const dirs = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const name = entryName(entry);
    const relative = safeRelativePath(name);
    if (isSymlink(entry)) {
      throw refuseBuild(
        'SYMLINK',
        `The zip contains a symbolic link: ${JSON.stringify(relative)}. Links are not allowed: zip the files themselves.`,
      );
    }
    if (name.endsWith('/') || name.endsWith('\\') || relative === '') {
      continue;
    }
    if (entry.isEncrypted()) {
      throw refuseBuild(
        'NOT_A_ZIP',
        `The zip is encrypted (${JSON.stringify(relative)}): upload it without a password.`,
      );
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw refuseBuild(
        'NOT_A_ZIP',
        `The zip uses a compression method this server cannot read (${JSON.stringify(relative)}): make it with "deflate" or "store".`,
      );
    }
    if (files.has(relative) || dirs.has(relative)) {
      throw refuseBuild('UNSAFE_PATH', `The zip contains ${JSON.stringify(relative)} twice.`);
    }
    const parents = relative.split('/').slice(0, -1);
    for (let depth = 1; depth <= parents.length; depth++) {
      const parent = parents.slice(0, depth).join('/');
      if (files.has(parent)) {
        throw refuseBuild(
          'UNSAFE_PATH',
          `The zip contains ${JSON.stringify(parent)} both as a file and as a folder.`,
        );
      }
      dirs.add(parent);
    }
    files.add(relative);
    if (files.size > limits.maxFiles) {
      throw tooManyFiles(limits.maxFiles);
    }
    const isLargeEntry = entry.uncompressedSize > MB;
    if (
      isLargeEntry &&
      entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)
    ) {
      throw refuseBuild(
        'ZIP_BOMB',
        `The zip looks like a zip bomb: ${JSON.stringify(relative)} unpacks to more than ${limits.maxRatio} times its packed size (GAME_ZIP_MAX_RATIO).`,
      );
    }
    total += entry.uncompressedSize;
    if (total > limits.maxUnpackedBytes) {
      throw refuseBuild(
        'ZIP_BOMB',
        `The zip unpacks to more than ${formatBytes(limits.maxUnpackedBytes)} (GAME_ZIP_MAX_UNPACKED_BYTES).`,
      );
    }
    planned.push({ entry, path: relative });
  }
  // a folder where the server writes a file's compressed copy (game.js.br/…) could not be
  // published: refused here rather than failing while compressing
  for (const file of files) {
    for (const suffix of COPY_SUFFIXES) {
      if (dirs.has(`${file}${suffix}`)) {
        throw refuseBuild(
          'UNSAFE_PATH',
          `The zip contains a folder ${displayName(`${file}${suffix}`)} where the compressed copy of ${displayName(file)} goes: rename the folder.`,
        );
      }
    }
  }
  if (total > MB && total > limits.maxRatio * Math.max(zipSize, 1)) {
    throw refuseBuild(
      'ZIP_BOMB',
      `The zip looks like a zip bomb: it unpacks to more than ${limits.maxRatio} times its size (GAME_ZIP_MAX_RATIO).`,
    );
  }
  return planned;
}

/**
 * Passes an entry's bytes through and refuses them at the end when their CRC-32 is not the one
 * the zip's directory names: the bytes were changed after zipping (a damaged download, a
 * truncated copy), and a build of damaged files must not be published.
 */
function crcCheck(entry: Entry, relative: string): Transform {
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      crc = crc32(chunk, crc);
      callback(null, chunk);
    },
    flush(callback) {
      callback(
        crc === entry.crc32 >>> 0
          ? null
          : refuseBuild(
              'BAD_ZIP',
              `The zip file is damaged: the contents of ${JSON.stringify(relative)} do not match its checksum (CRC-32). Zip the build again and upload the new file.`,
            ),
      );
    },
  });
}

function openEntry(zipfile: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error) {
        reject(error);
        return;
      }
      resolve(stream);
    });
  });
}

/** A zip whose every entry was checked (planUnpack): the files to publish, not yet read. */
export interface CheckedZip {
  files: ReadonlyArray<PlannedFile>;
  zipfile: ZipFile;
  close(): void;
}

/**
 * Opens `zipFile` and checks every entry of its central directory (paths, links, counts, sizes,
 * ratios) before a byte is read, or throws the refusal (closing the zip).
 */
export async function openCheckedZip(zipFile: string, limits: ZipLimits): Promise<CheckedZip> {
  const zipfile = await openZip(zipFile);
  try {
    // directory entries count too: allow as many again before refusing on the raw list
    const entries = await readEntries(zipfile, limits.maxFiles * 2 + 16);
    const files = planUnpack(entries, zipfile.fileSize, limits);
    return { files, zipfile, close: () => zipfile.close() };
  } catch (error) {
    zipfile.close();
    throw error;
  }
}

function damaged(relative: string): HttpError {
  return refuseBuild(
    'NOT_A_ZIP',
    `The zip file is damaged: ${JSON.stringify(relative)} cannot be unpacked.`,
  );
}

/**
 * A checked entry's bytes, their CRC-32 checked as they stream (crcCheck); a read that fails
 * ends the stream with the refusal. yauzl checks that the bytes match the declared size, so the
 * checked sizes are the sizes read. Several entries may be read at once.
 */
export async function openCheckedEntry(zip: CheckedZip, file: PlannedFile): Promise<Readable> {
  const source = await openEntry(zip.zipfile, file.entry).catch(() => {
    throw damaged(file.path);
  });
  const checked = crcCheck(file.entry, file.path);
  source.once('error', () => checked.destroy(damaged(file.path)));
  // a reader that stops early (detection reads heads, a failed put) lets the entry read on to
  // its end, discarded: destroying a read of yauzl's with another queued on the same zip throws
  // later from inside yauzl (fd-slicer reads the closed zip's fd)
  let hasEnded = false;
  source.once('end', () => {
    hasEnded = true;
  });
  checked.once('close', () => {
    if (!hasEnded) {
      source.unpipe(checked);
      source.on('data', () => undefined);
      source.resume();
    }
  });
  return source.pipe(checked);
}

/**
 * Unpacks `zipFile` into the empty folder `destDir` after checking every entry, or throws the
 * refusal.
 */
export async function unpackZip(
  zipFile: string,
  destDir: string,
  limits: ZipLimits,
): Promise<UnpackedFile[]> {
  const zip = await openCheckedZip(zipFile, limits);
  try {
    const root = path.resolve(destDir);
    for (const file of zip.files) {
      const target = path.resolve(root, file.path);
      if (!target.startsWith(root + path.sep)) {
        throw refuseBuild(
          'UNSAFE_PATH',
          `The zip contains an unsafe path: ${JSON.stringify(file.path)}.`,
        );
      }
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await pipeline(
          await openCheckedEntry(zip, file),
          createWriteStream(target, { flags: 'wx' }),
        );
      } catch (error) {
        throw error instanceof HttpError ? error : damaged(file.path);
      }
    }
    return zip.files.map((file) => ({ path: file.path, size: file.entry.uncompressedSize }));
  } finally {
    zip.close();
  }
}
