import { type FileHandle, open } from 'node:fs/promises';

import type { AcceptedMediaType } from '@portfolio/types/media';

import { isMp3FrameHeader } from './sniff.js';

/*
 * Duration (and a video's size) read from the container's headers with small parsers: MP4's
 * `mvhd`/`tkhd`, WebM's Info and Tracks, an MP3's Xing/VBRI header or its bitrate, an Ogg
 * stream's last granule position, a WAV's data size. No decoding and no ffmpeg. A file whose
 * container cannot be read (an MP4 without its `moov`, an MP3 without frames) is refused as
 * corrupt: a browser could not play it either.
 */

export interface ProbeResult {
  durationSeconds?: number;
  width?: number;
  height?: number;
}

export class CorruptMediaError extends Error {}

/** A file whose structure would cost far more work than its size suggests (refused, 400). */
export class MediaTooComplexError extends Error {}

/**
 * The most chunks (WAV) or top-level boxes (MP4) walked before the one wanted: real files have a
 * handful; a crafted one of empty chunks has a hundred thousand in a megabyte.
 */
export const MAX_CONTAINER_CHUNKS = 1000;

/** The most of a container's header read into memory (a long MP4's `moov` is a few MB). */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Reads small headers at increasing positions through one 64 KiB window, so walking a file's
 * chunks costs a read per window, not one per chunk.
 */
function windowedReader(file: FileHandle, windowBytes = 64 * 1024) {
  let start = 0;
  let window: Buffer = Buffer.alloc(0);
  return async (position: number, length: number): Promise<Buffer> => {
    if (position < start || position + length > start + window.length) {
      start = position;
      window = await readAt(file, position, Math.max(length, windowBytes));
    }
    return window.subarray(position - start, position - start + length);
  };
}

const finite = (value: number) => (Number.isFinite(value) && value >= 0 ? value : undefined);

// ---- MP4 -------------------------------------------------------------------------------

interface Box {
  type: string;
  start: number;
  size: number;
  headerSize: number;
}

/** The boxes inside `data` from `start` to `end` (a box's size 0 runs to the end). */
function* boxesIn(data: Buffer, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    let headerSize = 8;
    if (size === 1) {
      if (offset + 16 > end) {
        return;
      }
      size = Number(data.readBigUInt64BE(offset + 8));
      headerSize = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < headerSize || offset + size > end) {
      return;
    }
    yield { type, start: offset, size, headerSize };
    offset += size;
  }
}

function child(data: Buffer, parent: Box, type: string): Box | undefined {
  for (const box of boxesIn(data, parent.start + parent.headerSize, parent.start + parent.size)) {
    if (box.type === type) {
      return box;
    }
  }
  return undefined;
}

async function probeMp4(file: FileHandle, size: number): Promise<ProbeResult> {
  // top-level boxes are walked by their headers: the `moov` may come after gigabytes of `mdat`
  let offset = 0;
  let moov: Buffer | undefined;
  const readHeader = windowedReader(file);
  for (let boxes = 0; offset + 8 <= size; boxes++) {
    if (boxes === MAX_CONTAINER_CHUNKS) {
      throw new MediaTooComplexError(
        `The video has more than ${MAX_CONTAINER_CHUNKS.toLocaleString('en')} boxes before its index (the MP4 moov box). Export it again with the index at the start ("fast start").`,
      );
    }
    const header = await readHeader(offset, 16);
    if (header.length < 8) {
      break;
    }
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (boxSize === 1) {
      boxSize = Number(header.readBigUInt64BE(8));
    } else if (boxSize === 0) {
      boxSize = size - offset;
    }
    if (boxSize < 8 || offset + boxSize > size) {
      break;
    }
    if (type === 'moov') {
      if (boxSize > MAX_HEADER_BYTES) {
        return {};
      }
      moov = await readAt(file, offset, boxSize);
      break;
    }
    offset += boxSize;
  }
  if (!moov) {
    throw new CorruptMediaError(
      'The video is incomplete: its index (the MP4 moov box) is missing.',
    );
  }
  const root: Box = { type: 'moov', start: 0, size: moov.length, headerSize: 8 };
  const result: ProbeResult = {};
  const mvhd = child(moov, root, 'mvhd');
  if (mvhd) {
    const at = mvhd.start + mvhd.headerSize;
    const version = moov[at];
    const timescale = version === 1 ? moov.readUInt32BE(at + 20) : moov.readUInt32BE(at + 12);
    const duration =
      version === 1 ? Number(moov.readBigUInt64BE(at + 24)) : moov.readUInt32BE(at + 16);
    if (timescale > 0) {
      result.durationSeconds = finite(duration / timescale);
    }
  }
  for (const trak of boxesIn(moov, 8, moov.length)) {
    if (trak.type !== 'trak') {
      continue;
    }
    const tkhd = child(moov, trak, 'tkhd');
    if (!tkhd || tkhd.size < 92) {
      continue;
    }
    // width and height are the box's last 8 bytes, 16.16 fixed point
    const end = tkhd.start + tkhd.size;
    const width = Math.round(moov.readUInt32BE(end - 8) / 65536);
    const height = Math.round(moov.readUInt32BE(end - 4) / 65536);
    if (width > 0 && height > 0) {
      result.width = width;
      result.height = height;
      break;
    }
  }
  return result;
}

// ---- WebM (EBML) -----------------------------------------------------------------------

const EBML = {
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  cluster: 0x1f43b675,
} as const;

const MASTER_IDS = new Set<number>([
  EBML.segment,
  EBML.info,
  EBML.tracks,
  EBML.trackEntry,
  EBML.video,
]);

/** Reads a variable-length integer: its value (marker removed for sizes) and length. */
function readVint(
  data: Buffer,
  offset: number,
  keepMarker: boolean,
): { value: number; length: number; isUnknown: boolean } | undefined {
  const first = data[offset];
  if (first === undefined || first === 0) {
    return undefined;
  }
  const length = Math.clz32(first) - 23;
  if (offset + length > data.length) {
    return undefined;
  }
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = data[offset + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, isUnknown: !keepMarker && allOnes };
}

function readUint(data: Buffer, start: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) {
    value = value * 256 + (data[start + i] ?? 0);
  }
  return value;
}

function probeWebm(data: Buffer): ProbeResult {
  let timecodeScale = 1_000_000;
  let duration: number | undefined;
  let width: number | undefined;
  let height: number | undefined;
  const walk = (start: number, end: number) => {
    let offset = start;
    while (offset < end) {
      const id = readVint(data, offset, true);
      const size = id ? readVint(data, offset + id.length, false) : undefined;
      if (!id || !size) {
        return;
      }
      const bodyStart = offset + id.length + size.length;
      const bodyEnd = size.isUnknown ? end : Math.min(end, bodyStart + size.value);
      if (id.value === EBML.cluster) {
        return; // media data: the headers are before it
      }
      if (MASTER_IDS.has(id.value)) {
        walk(bodyStart, bodyEnd);
      } else if (id.value === EBML.timecodeScale) {
        timecodeScale = readUint(data, bodyStart, size.value);
      } else if (id.value === EBML.duration && bodyEnd <= data.length) {
        duration =
          size.value === 8
            ? data.readDoubleBE(bodyStart)
            : size.value === 4
              ? data.readFloatBE(bodyStart)
              : undefined;
      } else if (id.value === EBML.pixelWidth && width === undefined) {
        width = readUint(data, bodyStart, size.value);
      } else if (id.value === EBML.pixelHeight && height === undefined) {
        height = readUint(data, bodyStart, size.value);
      }
      if (size.isUnknown) {
        return;
      }
      offset = bodyStart + size.value;
    }
  };
  walk(0, data.length);
  const result: ProbeResult = {};
  if (duration !== undefined) {
    result.durationSeconds = finite((duration * timecodeScale) / 1e9);
  }
  if (width && height) {
    result.width = width;
    result.height = height;
  }
  return result;
}

// ---- MP3 -------------------------------------------------------------------------------

const MP3_BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_SAMPLE_RATES = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

interface Mp3Frame {
  bitrate: number;
  sampleRate: number;
  samplesPerFrame: number;
  length: number;
  sideInfo: number;
}

function mp3Frame(data: Buffer, offset: number): Mp3Frame | undefined {
  if (!isMp3FrameHeader(data, offset)) {
    return undefined;
  }
  const b1 = data[offset + 1] ?? 0;
  const b2 = data[offset + 2] ?? 0;
  const b3 = data[offset + 3] ?? 0;
  const version = (b1 >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
  const isV1 = version === 3;
  const bitrate = (isV1 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[b2 >> 4] ?? 0;
  const rates = MP3_SAMPLE_RATES[version === 3 ? 3 : version === 2 ? 2 : 0];
  const sampleRate = rates[(b2 >> 2) & 0x03] ?? 0;
  const padding = (b2 >> 1) & 0x01;
  const samplesPerFrame = isV1 ? 1152 : 576;
  const length = Math.floor(((samplesPerFrame / 8) * bitrate * 1000) / sampleRate) + padding;
  const isMono = b3 >> 6 === 3;
  const sideInfo = isV1 ? (isMono ? 17 : 32) : isMono ? 9 : 17;
  return { bitrate, sampleRate, samplesPerFrame, length, sideInfo };
}

async function probeMp3(file: FileHandle, size: number): Promise<ProbeResult> {
  let start = 0;
  const id3 = await readAt(file, 0, 10);
  if (id3.toString('latin1', 0, 3) === 'ID3' && id3.length === 10) {
    const tagSize =
      ((id3[6] ?? 0) << 21) | ((id3[7] ?? 0) << 14) | ((id3[8] ?? 0) << 7) | (id3[9] ?? 0);
    start = 10 + tagSize + ((id3[5] ?? 0) & 0x10 ? 10 : 0);
  }
  // the first frame: a header whose next frame starts where its length says
  const window = await readAt(file, start, 64 * 1024);
  for (let offset = 0; offset < window.length - 4; offset++) {
    const frame = mp3Frame(window, offset);
    if (!frame || frame.length <= 0) {
      continue;
    }
    const nextAt = offset + frame.length;
    const isConfirmed =
      nextAt + 4 > window.length ? start + nextAt >= size : Boolean(mp3Frame(window, nextAt));
    if (!isConfirmed) {
      continue;
    }
    const xingAt = offset + 4 + frame.sideInfo;
    const tag = window.toString('latin1', xingAt, xingAt + 4);
    if ((tag === 'Xing' || tag === 'Info') && (window.readUInt32BE(xingAt + 4) & 0x01) === 1) {
      const frames = window.readUInt32BE(xingAt + 8);
      return { durationSeconds: finite((frames * frame.samplesPerFrame) / frame.sampleRate) };
    }
    const vbriAt = offset + 36;
    if (window.toString('latin1', vbriAt, vbriAt + 4) === 'VBRI') {
      const frames = window.readUInt32BE(vbriAt + 14);
      return { durationSeconds: finite((frames * frame.samplesPerFrame) / frame.sampleRate) };
    }
    // constant bitrate: the audio's bytes at that rate (an ID3v1 tag at the end left out)
    const tail = await readAt(file, Math.max(0, size - 128), 3);
    const audioBytes = size - (start + offset) - (tail.toString('latin1') === 'TAG' ? 128 : 0);
    return { durationSeconds: finite((audioBytes * 8) / (frame.bitrate * 1000)) };
  }
  throw new CorruptMediaError('The MP3 file has no audio frames.');
}

// ---- Ogg -------------------------------------------------------------------------------

async function probeOgg(file: FileHandle, size: number): Promise<ProbeResult> {
  const head = await readAt(file, 0, 4096);
  let sampleRate: number | undefined;
  let preSkip = 0;
  const opus = head.indexOf('OpusHead', 0, 'latin1');
  const vorbis = head.indexOf('\x01vorbis', 0, 'latin1');
  const flac = head.indexOf('\x7fFLAC', 0, 'latin1');
  if (opus >= 0 && opus + 12 <= head.length) {
    sampleRate = 48_000;
    preSkip = head.readUInt16LE(opus + 10);
  } else if (vorbis >= 0 && vorbis + 16 <= head.length) {
    sampleRate = head.readUInt32LE(vorbis + 12);
  } else if (flac >= 0 && flac + 30 <= head.length) {
    // STREAMINFO after the 9-byte Ogg FLAC header and 4-byte block header: 20 bits of rate
    const info = flac + 13;
    sampleRate =
      ((head[info + 10] ?? 0) << 12) |
      ((head[info + 11] ?? 0) << 4) |
      ((head[info + 12] ?? 0) >> 4);
  }
  if (!sampleRate) {
    return {};
  }
  const tailStart = Math.max(0, size - 64 * 1024);
  const tail = await readAt(file, tailStart, size - tailStart);
  const last = tail.lastIndexOf('OggS', tail.length, 'latin1');
  if (last < 0 || last + 14 > tail.length) {
    throw new CorruptMediaError('The Ogg file is incomplete: its last page is missing.');
  }
  const granule = Number(tail.readBigInt64LE(last + 6));
  return { durationSeconds: finite((granule - preSkip) / sampleRate) };
}

// ---- WAV -------------------------------------------------------------------------------

async function probeWav(file: FileHandle, size: number): Promise<ProbeResult> {
  let offset = 12;
  let byteRate = 0;
  const readHeader = windowedReader(file);
  for (let chunks = 0; offset + 8 <= size; chunks++) {
    if (chunks === MAX_CONTAINER_CHUNKS) {
      throw new MediaTooComplexError(
        `The WAV file has more than ${MAX_CONTAINER_CHUNKS.toLocaleString('en')} chunks before its audio data: it is not a recording a browser plays. Export it again as a plain WAV file.`,
      );
    }
    const header = await readHeader(offset, 8);
    const id = header.toString('latin1', 0, 4);
    const chunkSize = header.readUInt32LE(4);
    if (id === 'fmt ') {
      const fmt = await readHeader(offset + 8, 16);
      byteRate = fmt.length >= 12 ? fmt.readUInt32LE(8) : 0;
    } else if (id === 'data') {
      if (!byteRate) {
        break;
      }
      const dataBytes = Math.min(chunkSize, size - offset - 8);
      return { durationSeconds: finite(dataBytes / byteRate) };
    }
    offset += 8 + chunkSize + (chunkSize % 2);
  }
  throw new CorruptMediaError('The WAV file has no audio data.');
}

/** Reads the facts a video or audio file's container holds. */
export async function probeMedia(
  filePath: string,
  mime: AcceptedMediaType,
  size: number,
): Promise<ProbeResult> {
  const file = await open(filePath, 'r');
  try {
    switch (mime) {
      case 'video/mp4':
        return await probeMp4(file, size);
      case 'video/webm':
        return probeWebm(await readAt(file, 0, Math.min(size, 1024 * 1024)));
      case 'audio/mpeg':
        return await probeMp3(file, size);
      case 'audio/ogg':
        return await probeOgg(file, size);
      case 'audio/wav':
        return await probeWav(file, size);
      default:
        return {};
    }
  } finally {
    await file.close();
  }
}
