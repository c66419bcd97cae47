import type { AcceptedMediaType, StoredMediaKind } from '@portfolio/types/media';

/*
 * What an upload is, told by its first bytes (magic numbers), never by its name or the
 * Content-Type a client chose. Only the types the site serves are recognised; SVG is named so
 * its refusal can say why.
 */

export interface SniffedType {
  mime: AcceptedMediaType;
  kind: StoredMediaKind;
  /** The extension files of this type are stored under. */
  ext: string;
  /** How people call it in a message ('a PNG image'). */
  label: string;
}

export type SniffResult = SniffedType | { refused: 'svg' } | undefined;

/** Bytes read before deciding (an MP3's ID3 tag may be longer: then the tag alone decides). */
export const SNIFF_BYTES = 64 * 1024;

const TYPES = {
  jpeg: { mime: 'image/jpeg', kind: 'image', ext: 'jpg', label: 'a JPEG image' },
  png: { mime: 'image/png', kind: 'image', ext: 'png', label: 'a PNG image' },
  webp: { mime: 'image/webp', kind: 'image', ext: 'webp', label: 'a WebP image' },
  avif: { mime: 'image/avif', kind: 'image', ext: 'avif', label: 'an AVIF image' },
  gif: { mime: 'image/gif', kind: 'image', ext: 'gif', label: 'a GIF image' },
  mp4: { mime: 'video/mp4', kind: 'video', ext: 'mp4', label: 'an MP4 video' },
  webm: { mime: 'video/webm', kind: 'video', ext: 'webm', label: 'a WebM video' },
  mp3: { mime: 'audio/mpeg', kind: 'audio', ext: 'mp3', label: 'an MP3 file' },
  ogg: { mime: 'audio/ogg', kind: 'audio', ext: 'ogg', label: 'an Ogg file' },
  wav: { mime: 'audio/wav', kind: 'audio', ext: 'wav', label: 'a WAV file' },
} as const satisfies Record<string, SniffedType>;

/** File-name extensions and the type each names (others, or none, say nothing). */
const EXTENSION_TYPES: Record<string, AcceptedMediaType | 'image/svg+xml'> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  ogv: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  svg: 'image/svg+xml',
};

/** The type a file name's extension names, if it names one of the media types. */
export function typeNamedBy(fileName: string): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : EXTENSION_TYPES[ext];
}

const ascii = (bytes: Buffer, start: number, end: number) =>
  bytes.subarray(start, end).toString('latin1');

/** ISO base media (MP4, AVIF): the `ftyp` box's major and compatible brands. */
function ftypBrands(head: Buffer): string[] | undefined {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') {
    return undefined;
  }
  const size = Math.min(head.readUInt32BE(0), head.length);
  const brands = [ascii(head, 8, 12)];
  for (let offset = 16; offset + 4 <= size; offset += 4) {
    brands.push(ascii(head, offset, offset + 4));
  }
  return brands;
}

const MP4_BRANDS = /^(iso[2-9m]|mp4[12]|avc1|dash|M4V |mmp4|MSNV|NDAS|f4v )$/;

/** The EBML DocType of a Matroska/WebM file ('webm', 'matroska'). */
function ebmlDocType(head: Buffer): string | undefined {
  if (head.length < 4 || head.readUInt32BE(0) !== 0x1a45dfa3) {
    return undefined;
  }
  const at = head.indexOf(Buffer.from([0x42, 0x82]), 4);
  if (at < 0 || at > 64) {
    return undefined;
  }
  const sizeByte = head[at + 2] ?? 0;
  const sizeLength = Math.clz32(sizeByte) - 23;
  if (sizeLength < 1 || sizeLength > 8) {
    return undefined;
  }
  let size = sizeByte & (0xff >> sizeLength);
  for (let i = 1; i < sizeLength; i++) {
    size = size * 256 + (head[at + 2 + i] ?? 0);
  }
  const start = at + 2 + sizeLength;
  return ascii(head, start, start + size).replace(/\0+$/, '');
}

/** An MPEG-1/2/2.5 Layer III frame header at `offset`. */
export function isMp3FrameHeader(bytes: Buffer, offset: number): boolean {
  if (offset + 4 > bytes.length) {
    return false;
  }
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  return (
    bytes[offset] === 0xff &&
    (b1 & 0xe0) === 0xe0 &&
    (b1 & 0x18) !== 0x08 && // version not reserved
    (b1 & 0x06) === 0x02 && // layer III
    (b2 & 0xf0) !== 0xf0 && // bitrate not bad
    (b2 & 0xf0) !== 0x00 && // not free format
    (b2 & 0x0c) !== 0x0c // sample rate not reserved
  );
}

function looksLikeSvg(head: Buffer): boolean {
  const text = head
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg|<svg[\s>])/i.test(text);
}

/** What the bytes at the start of a file are, if the site accepts that type. */
export function sniffMediaType(head: Buffer): SniffResult {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return TYPES.jpeg;
  }
  if (
    head.length >= 8 &&
    head.readUInt32BE(0) === 0x89504e47 &&
    head.readUInt32BE(4) === 0x0d0a1a0a
  ) {
    return TYPES.png;
  }
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') {
    return TYPES.gif;
  }
  if (ascii(head, 0, 4) === 'RIFF') {
    const format = ascii(head, 8, 12);
    if (format === 'WEBP') {
      return TYPES.webp;
    }
    if (format === 'WAVE') {
      return TYPES.wav;
    }
    return undefined;
  }
  const brands = ftypBrands(head);
  if (brands) {
    const [major = ''] = brands;
    if (
      major === 'avif' ||
      major === 'avis' ||
      (/^m[is]f1$/.test(major) && brands.includes('avif'))
    ) {
      return TYPES.avif;
    }
    return MP4_BRANDS.test(major) ? TYPES.mp4 : undefined;
  }
  const docType = ebmlDocType(head);
  if (docType !== undefined) {
    return docType === 'webm' ? TYPES.webm : undefined;
  }
  if (ascii(head, 0, 4) === 'OggS') {
    return TYPES.ogg;
  }
  if (ascii(head, 0, 3) === 'ID3') {
    // the tag (cover art included) comes first: the frames after it are checked when read
    return TYPES.mp3;
  }
  if (isMp3FrameHeader(head, 0)) {
    return TYPES.mp3;
  }
  if (looksLikeSvg(head)) {
    return { refused: 'svg' };
  }
  return undefined;
}

/** How a type is called in a message, by MIME type. */
export function labelOf(mime: string): string {
  if (mime === 'image/svg+xml') {
    return 'an SVG image';
  }
  return Object.values(TYPES).find((type) => type.mime === mime)?.label ?? mime;
}
