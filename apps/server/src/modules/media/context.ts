import { eq } from 'drizzle-orm';

import type { MediaUse, StoredMedia } from '@portfolio/types/media';

import type { Db } from '../../db/client.js';
import { media } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import type { MediaLimits } from './receive.js';

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

/** What every media command and query works with. */
export interface MediaContext {
  db: Db;
  config: MediaConfig;
  /** Where stored files are kept (keys are their names under /media/). */
  storage: ObjectStorage;
  /** MEDIA_DIR/.incoming: uploads in progress, never served. */
  incoming: string;
  /** The sources asked before a file is removed (added at wiring). */
  sources: MediaReferenceSource[];
}

export type MediaRow = typeof media.$inferSelect;

export const urlOf = (file: string) => MEDIA_URL_PREFIX + file;

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

/** Every thing of every source that still shows one of `urls`. */
export async function usesOf(
  { sources }: MediaContext,
  urls: readonly string[],
): Promise<MediaUse[]> {
  const uses: MediaUse[] = [];
  for (const source of sources) {
    for (const title of await source.titlesUsing(urls)) {
      uses.push({ kind: source.kind, title });
    }
  }
  return uses;
}

/** An item's row; 404 if unknown. */
export async function findMediaRow({ db }: MediaContext, id: string): Promise<MediaRow> {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  if (!row) {
    throw notFound('No such media item');
  }
  return row;
}

export async function removeRowAndFiles({ db, storage }: MediaContext, row: MediaRow) {
  await db.delete(media).where(eq(media.id, row.id));
  await Promise.all(filesOf(row).map((file) => storage.delete(file)));
}
