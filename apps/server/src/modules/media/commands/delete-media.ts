import { inArray } from 'drizzle-orm';

import { describeMediaUses, type MediaUse } from '@portfolio/types/media';

import { media } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import {
  findMediaRow,
  MEDIA_URL_PREFIX,
  type MediaContext,
  removeRowAndFiles,
  urlsOf,
  usesOf,
} from '../context.js';

/** What shows an item (the projects and posts); 404 if unknown. */
export async function mediaUsage(ctx: MediaContext, id: string): Promise<MediaUse[]> {
  return usesOf(ctx, urlsOf(await findMediaRow(ctx, id)));
}

/** Deletes an item and its files; 404 if unknown, 409 if a reference source still uses it. */
export async function deleteMedia(ctx: MediaContext, id: string): Promise<void> {
  const row = await findMediaRow(ctx, id);
  const uses = await usesOf(ctx, urlsOf(row));
  if (uses.length > 0) {
    throw new HttpError(
      'MEDIA_IN_USE',
      `This file is still used by ${describeMediaUses(uses)}: remove it there first.`,
    );
  }
  await removeRowAndFiles(ctx, row);
}

/** Removes the stored items behind `urls` that no reference source uses any more. */
export async function removeUnusedMedia(
  ctx: MediaContext,
  urls: readonly string[],
): Promise<string[]> {
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
  const rows = await ctx.db.select().from(media).where(inArray(media.sha256, hashes));
  const removed: string[] = [];
  for (const row of rows) {
    if ((await usesOf(ctx, urlsOf(row))).length === 0) {
      await removeRowAndFiles(ctx, row);
      removed.push(row.id);
    }
  }
  return removed;
}
