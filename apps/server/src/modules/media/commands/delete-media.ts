import { eq, inArray } from 'drizzle-orm';

import { media } from '../../../db/schema.js';
import { HttpError, notFound } from '../../../lib/errors.js';
import {
  MEDIA_URL_PREFIX,
  type MediaContext,
  removeRowAndFiles,
  urlsOf,
  userOf,
} from '../context.js';

/** Deletes an item and its files; 404 if unknown, 409 if a reference source still uses it. */
export async function deleteMedia(ctx: MediaContext, id: string): Promise<void> {
  const [row] = await ctx.db.select().from(media).where(eq(media.id, id));
  if (!row) {
    throw notFound('No such media item');
  }
  const user = await userOf(ctx, urlsOf(row));
  if (user) {
    throw new HttpError(
      'MEDIA_IN_USE',
      `This file is still used by ${user}: remove it there first.`,
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
    if ((await userOf(ctx, urlsOf(row))) === undefined) {
      await removeRowAndFiles(ctx, row);
      removed.push(row.id);
    }
  }
  return removed;
}
