import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

/*
 * The entries of a tar.gz, read from its headers without writing anything: restore checks every
 * entry before `tar` unpacks one. Reads the formats GNU tar writes and reads (ustar with its
 * name prefix, GNU long names and long link names, pax extended headers), so a name or a link
 * is seen as tar will see it. A header whose checksum is wrong is refused rather than skipped
 * over (tar would search for the next header there, and could find one this reader did not).
 */

export type TarEntryKind =
  | 'file'
  | 'directory'
  | 'hard link'
  | 'symbolic link'
  | 'character device'
  | 'block device'
  | 'fifo'
  | 'other';

export interface TarEntry {
  name: string;
  kind: TarEntryKind;
  /** What a link points to ('' for other entries). */
  linkName: string;
}

export class TarFormatError extends Error {}

const BLOCK = 512;
/** A long name or pax header larger than this is no backup's (names stay under 4 KiB). */
const MAX_META_BYTES = 1024 * 1024;

const KINDS: Readonly<Record<string, TarEntryKind>> = {
  '0': 'file',
  '\0': 'file',
  '1': 'hard link',
  '2': 'symbolic link',
  '3': 'character device',
  '4': 'block device',
  '5': 'directory',
  '6': 'fifo',
};

/** Headers that describe the next entry instead of being one. */
const META_TYPES = new Set(['x', 'g', 'L', 'K']);

const text = (block: Buffer, start: number, length: number) => {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
};

/** A numeric field: octal text, or GNU's base-256 when the first byte's high bit is set. */
function numberField(block: Buffer, start: number, length: number): number {
  const first = block[start] ?? 0;
  if (first & 0x80) {
    let value = first & 0x7f;
    for (let i = 1; i < length; i++) {
      value = value * 256 + (block[start + i] ?? 0);
    }
    return value;
  }
  const digits = text(block, start, length).trim();
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

function checksumHolds(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) {
    // the checksum field itself counts as spaces
    sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  }
  return numberField(block, 148, 8) === sum;
}

/** The `path` and `linkpath` records of a pax extended header ("<length> <key>=<value>\n"…). */
function paxRecords(data: Buffer): { path?: string; linkpath?: string } {
  const records: { path?: string; linkpath?: string } = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space === -1 ? NaN : Number.parseInt(data.toString('latin1', at, space), 10);
    if (!Number.isFinite(length) || length <= 0 || at + length > data.length) {
      throw new TarFormatError('a pax extended header is malformed');
    }
    const record = data.toString('utf8', space + 1, at + length - 1);
    const equals = record.indexOf('=');
    const key = record.slice(0, equals);
    if (key === 'path' || key === 'linkpath') {
      records[key] = record.slice(equals + 1);
    }
    at += length;
  }
  return records;
}

const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Every entry of the tar.gz at `file`, in order (metadata headers folded into their entry). */
export async function* tarEntries(file: string): AsyncGenerator<TarEntry> {
  let pending = Buffer.alloc(0);
  /** Bytes of an entry's data still to pass over. */
  let skip = 0;
  /** A metadata header whose data is being read: its type and size. */
  let meta: { type: string; size: number } | undefined;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: { path?: string; linkpath?: string } = {};
  let ended = false;

  for await (const chunk of createReadStream(file).pipe(createGunzip())) {
    if (!Buffer.isBuffer(chunk)) {
      continue;
    }
    const buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    while (!ended) {
      if (skip > 0) {
        const passed = Math.min(skip, buffer.length - at);
        skip -= passed;
        at += passed;
        if (skip > 0) {
          break;
        }
        continue;
      }
      if (meta) {
        const needed = padded(meta.size);
        if (buffer.length - at < needed) {
          break;
        }
        const data = buffer.subarray(at, at + meta.size);
        if (meta.type === 'L') {
          longName = text(data, 0, data.length);
        } else if (meta.type === 'K') {
          longLink = text(data, 0, data.length);
        } else if (meta.type === 'x') {
          pax = { ...pax, ...paxRecords(data) };
        }
        at += needed;
        meta = undefined;
        continue;
      }
      if (buffer.length - at < BLOCK) {
        break;
      }
      const header = buffer.subarray(at, at + BLOCK);
      at += BLOCK;
      if (header.every((byte) => byte === 0)) {
        // the end: two zero blocks (what follows is padding)
        ended = true;
        break;
      }
      if (!checksumHolds(header)) {
        throw new TarFormatError('a header is damaged (its checksum does not match)');
      }
      const type = String.fromCharCode(header[156] ?? 0);
      const size = numberField(header, 124, 12);
      if (META_TYPES.has(type)) {
        if (size > MAX_META_BYTES) {
          throw new TarFormatError('a long name or extended header is too large');
        }
        meta = { type, size };
        continue;
      }
      const isPosix = header.toString('latin1', 257, 263) === 'ustar\0';
      const prefix = isPosix ? text(header, 345, 155) : '';
      const name = pax.path ?? longName ?? (prefix ? `${prefix}/` : '') + text(header, 0, 100);
      const linkName = pax.linkpath ?? longLink ?? text(header, 157, 100);
      const kind = KINDS[type] ?? 'other';
      pax = {};
      longName = undefined;
      longLink = undefined;
      // a hard link's or a device's size field is 0; a file's data follows its header
      skip = kind === 'file' || kind === 'other' ? padded(size) : 0;
      yield { name, kind, linkName };
    }
    pending = Buffer.from(buffer.subarray(at));
    if (ended) {
      break;
    }
  }
  if (!ended && (skip > 0 || meta || pending.length > 0)) {
    throw new TarFormatError('the archive ends in the middle of an entry');
  }
}
