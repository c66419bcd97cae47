import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import { desc, eq, inArray } from 'drizzle-orm';

import {
  DEFAULT_AUDIO_THUMBNAIL,
  DEFAULT_VIDEO_THUMBNAIL,
  describeMediaUses,
  type MediaUse,
  type MediaVariant,
  type StoredMedia,
} from '@portfolio/types/media';

import type { Db } from '../../db/client.js';
import { media } from '../../db/schema.js';
import { HttpError, notFound } from '../../lib/errors.js';
import { AnimationTooLargeError, CorruptImageError, processImage } from './images.js';
import { CorruptMediaError, MediaTooComplexError, probeMedia } from './probe.js';
import { type MediaLimits, receiveMedia, refuseMedia } from './receive.js';

/*
 * Uploaded media (issue "the owner's portfolio without code"): receive, check, process, store
 * by content hash, list, delete. Files live flat in MEDIA_DIR, served at /media/<file>; work in
 * progress lives in MEDIA_DIR/.incoming (never served: dot folders are not), so a refused upload
 * leaves nothing behind.
 */

/** Where stored files are served from. */
export const MEDIA_URL_PREFIX = '/media/';

export interface MediaConfig {
  dir: string;
  limits: MediaLimits;
}

/**
 * Something that keeps media URLs (gallery projects, posts): asked before a file is removed
 * which of its things still show any of an item's URLs (its url, variants, thumbnail).
 */
export interface MediaReferenceSource {
  /** What its things are called in messages ('gallery project': 'the gallery project "X"'). */
  kind: string;
  /** The titles of its things that show any of `urls`. */
  titlesUsing(urls: readonly string[]): Promise<string[]>;
}

export interface Actor {
  id: string;
}

export interface MediaService {
  readonly dir: string;
  upload(
    req: IncomingMessage,
    fileName: string,
    actor: Actor,
  ): Promise<{ media: StoredMedia; existing: boolean }>;
  list(): Promise<StoredMedia[]>;
  /** What shows an item (the projects and posts); 404 if unknown. */
  usage(id: string): Promise<MediaUse[]>;
  /** Deletes an item and its files; 404 if unknown, 409 if a reference source still uses it. */
  delete(id: string): Promise<void>;
  /**
   * Removes the stored items behind `urls` (any of an item's URLs names it) that no reference
   * source uses any more: call after deleting or editing what held them. Returns the removed ids.
   */
  removeUnusedMedia(urls: readonly string[]): Promise<string[]>;
  /** Adds a source asked by delete and removeUnusedMedia. */
  addReferenceSource(source: MediaReferenceSource): void;
  /**
   * Removes work folders a stopped process left in MEDIA_DIR/.incoming (older than a day: no
   * upload takes that long, so another process's upload on its way is never touched).
   */
  sweepIncoming(now?: number): Promise<number>;
}

const STALE_INCOMING_MS = 24 * 60 * 60 * 1000;

type MediaRow = typeof media.$inferSelect;

const urlOf = (file: string) => MEDIA_URL_PREFIX + file;

/** Every URL an item answers under (what content may hold). */
export function urlsOf(row: Pick<MediaRow, 'url' | 'thumbnail' | 'variants'>): string[] {
  return [...new Set([row.url, row.thumbnail, ...row.variants.map((variant) => variant.src)])];
}

/** The files of an item under MEDIA_DIR (default thumbnails are not its files). */
function filesOf(row: MediaRow): string[] {
  return urlsOf(row)
    .filter((url) => url.startsWith(MEDIA_URL_PREFIX))
    .map((url) => url.slice(MEDIA_URL_PREFIX.length));
}

export function toStoredMedia(row: MediaRow): StoredMedia {
  return {
    id: row.id,
    url: row.url,
    type: row.kind,
    mime: row.mime,
    bytes: row.bytes,
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    ...(row.durationSeconds !== null ? { duration: row.durationSeconds } : {}),
    thumbnail: row.thumbnail,
    variants: row.variants,
    originalName: row.originalName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A name as the admin's list shows it: no folders, no control characters, 255 characters at most. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);
}

export function createMediaService(deps: { db: Db; config: MediaConfig }): MediaService {
  const { db, config } = deps;
  const incoming = path.join(config.dir, '.incoming');
  const sources: MediaReferenceSource[] = [];

  const findBySha = async (sha256: string) =>
    (await db.select().from(media).where(eq(media.sha256, sha256)))[0];

  /** Every thing of every source that still shows one of `urls`. */
  async function usesOf(urls: readonly string[]): Promise<MediaUse[]> {
    const uses: MediaUse[] = [];
    for (const source of sources) {
      for (const title of await source.titlesUsing(urls)) {
        uses.push({ kind: source.kind, title });
      }
    }
    return uses;
  }

  async function findRow(id: string): Promise<MediaRow> {
    const [row] = await db.select().from(media).where(eq(media.id, id));
    if (!row) {
      throw notFound('No such media item');
    }
    return row;
  }

  async function removeRowAndFiles(row: MediaRow): Promise<void> {
    await db.delete(media).where(eq(media.id, row.id));
    await Promise.all(filesOf(row).map((file) => rm(path.join(config.dir, file), { force: true })));
  }

  /** Processes a received file in `work` and moves its outputs into MEDIA_DIR. */
  async function store(
    work: string,
    upload: string,
    received: Awaited<ReturnType<typeof receiveMedia>>,
  ) {
    const { type, sha256 } = received;
    if (type.kind === 'image') {
      const image = await processImage(upload, type.mime, work, sha256).catch((error: unknown) => {
        if (error instanceof CorruptImageError) {
          throw refuseMedia(
            'MEDIA_CORRUPT',
            `The image could not be read whole: it is truncated or damaged. Export it again and upload the new file.`,
            error.message,
          );
        }
        if (error instanceof AnimationTooLargeError) {
          throw refuseMedia('MEDIA_TOO_COMPLEX', error.message);
        }
        throw error;
      });
      for (const file of image.files) {
        await rename(path.join(work, file), path.join(config.dir, file));
      }
      const variants: MediaVariant[] = image.variants.map((variant) => ({
        ...variant,
        src: urlOf(variant.src),
      }));
      return {
        url: variants[variants.length - 1]?.src ?? urlOf(image.thumbnail),
        width: image.width,
        height: image.height,
        durationSeconds: null,
        variants,
        thumbnail: urlOf(image.thumbnail),
      };
    }
    const facts = await probeMedia(upload, type.mime, received.bytes).catch((error: unknown) => {
      if (error instanceof CorruptMediaError) {
        throw refuseMedia('MEDIA_CORRUPT', error.message);
      }
      if (error instanceof MediaTooComplexError) {
        throw refuseMedia('MEDIA_TOO_COMPLEX', error.message);
      }
      throw error;
    });
    const file = `${sha256}.${type.ext}`;
    await rename(upload, path.join(config.dir, file));
    return {
      url: urlOf(file),
      width: facts.width ?? null,
      height: facts.height ?? null,
      durationSeconds: facts.durationSeconds ?? null,
      variants: [],
      thumbnail: type.kind === 'video' ? DEFAULT_VIDEO_THUMBNAIL : DEFAULT_AUDIO_THUMBNAIL,
    };
  }

  return {
    dir: config.dir,

    async upload(req, fileName, actor) {
      await mkdir(incoming, { recursive: true });
      const work = path.join(incoming, randomUUID());
      await mkdir(work);
      try {
        const upload = path.join(work, 'upload');
        const received = await receiveMedia(req, upload, fileName, config.limits);
        const existing = await findBySha(received.sha256);
        if (existing) {
          return { media: toStoredMedia(existing), existing: true };
        }
        const stored = await store(work, upload, received);
        const [inserted] = await db
          .insert(media)
          .values({
            sha256: received.sha256,
            kind: received.type.kind,
            mime: received.type.mime,
            bytes: received.bytes,
            ...stored,
            originalName: cleanFileName(fileName),
            createdBy: actor.id,
          })
          .onConflictDoNothing({ target: media.sha256 })
          .returning();
        if (inserted) {
          return { media: toStoredMedia(inserted), existing: false };
        }
        // the same bytes finished in another request first: theirs is the same item
        const raced = await findBySha(received.sha256);
        if (!raced) {
          throw new Error('media row vanished after a conflicting insert');
        }
        return { media: toStoredMedia(raced), existing: true };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },

    async list() {
      const rows = await db.select().from(media).orderBy(desc(media.createdAt));
      return rows.map(toStoredMedia);
    },

    async usage(id) {
      return usesOf(urlsOf(await findRow(id)));
    },

    async delete(id) {
      const row = await findRow(id);
      const uses = await usesOf(urlsOf(row));
      if (uses.length > 0) {
        throw new HttpError(
          'MEDIA_IN_USE',
          `This file is still used by ${describeMediaUses(uses)}: remove it there first.`,
        );
      }
      await removeRowAndFiles(row);
    },

    async removeUnusedMedia(urls) {
      const files = urls
        .filter((url) => url.startsWith(MEDIA_URL_PREFIX))
        .map((url) => url.slice(MEDIA_URL_PREFIX.length));
      // an item is named by its hash, the first 64 characters of each of its files
      const hashes = [...new Set(files.map((file) => file.slice(0, 64)))].filter((hash) =>
        /^[0-9a-f]{64}$/.test(hash),
      );
      if (hashes.length === 0) {
        return [];
      }
      const rows = await db.select().from(media).where(inArray(media.sha256, hashes));
      const removed: string[] = [];
      for (const row of rows) {
        if ((await usesOf(urlsOf(row))).length === 0) {
          await removeRowAndFiles(row);
          removed.push(row.id);
        }
      }
      return removed;
    },

    addReferenceSource(source) {
      sources.push(source);
    },

    async sweepIncoming(now = Date.now()) {
      const entries = await readdir(incoming).catch(() => []);
      let removed = 0;
      for (const entry of entries) {
        const folder = path.join(incoming, entry);
        const info = await stat(folder).catch(() => undefined);
        if (info && now - info.mtimeMs > STALE_INCOMING_MS) {
          await rm(folder, { recursive: true, force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
