import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import type { StoredMedia } from '@portfolio/types/media';

import { media } from '../../../db/schema.js';
import { type MediaContext, toStoredMedia } from '../context.js';
import { receiveMedia } from '../receive.js';
import { storeUpload } from '../store.js';

/** A name as the admin's list shows it: no folders, no control characters, 255 characters at most. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);
}

const findBySha = async ({ db }: MediaContext, sha256: string) =>
  (await db.select().from(media).where(eq(media.sha256, sha256)))[0];

/** Receives, checks, processes and stores an upload; the same bytes again are the same item. */
export async function uploadMedia(
  ctx: MediaContext,
  req: IncomingMessage,
  fileName: string,
  actor: { id: string },
): Promise<{ media: StoredMedia; existing: boolean }> {
  await mkdir(ctx.incoming, { recursive: true });
  const work = path.join(ctx.incoming, randomUUID());
  await mkdir(work);
  try {
    const upload = path.join(work, 'upload');
    const received = await receiveMedia(req, upload, fileName, ctx.config.limits);
    const existing = await findBySha(ctx, received.sha256);
    if (existing) {
      return { media: toStoredMedia(existing), existing: true };
    }
    const stored = await storeUpload(ctx.storage, work, upload, received);
    const [inserted] = await ctx.db
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
    const raced = await findBySha(ctx, received.sha256);
    if (!raced) {
      throw new Error('media row vanished after a conflicting insert');
    }
    return { media: toStoredMedia(raced), existing: true };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
