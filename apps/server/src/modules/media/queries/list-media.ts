import { desc } from 'drizzle-orm';

import type { StoredMedia } from '@portfolio/types/media';

import { media } from '../../../db/schema.js';
import { type MediaContext, toStoredMedia } from '../context.js';

/** Every stored item, newest first. */
export async function listMedia({ db }: MediaContext): Promise<StoredMedia[]> {
  const rows = await db.select().from(media).orderBy(desc(media.createdAt));
  return rows.map(toStoredMedia);
}
