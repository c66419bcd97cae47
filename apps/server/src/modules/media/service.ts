import type { IncomingMessage } from 'node:http';
import path from 'node:path';

import type { MediaUse, StoredMedia } from '@portfolio/types/media';

import type { Db } from '../../db/client.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { deleteMedia, mediaUsage, removeUnusedMedia } from './commands/delete-media.js';
import { sweepIncoming } from './commands/sweep-incoming.js';
import { uploadMedia } from './commands/upload-media.js';
import type { MediaConfig, MediaContext, MediaReferenceSource } from './context.js';
import { listMedia } from './queries/list-media.js';

export {
  MEDIA_URL_PREFIX,
  type MediaConfig,
  type MediaReferenceSource,
  toStoredMedia,
  urlsOf,
} from './context.js';
export { cleanFileName } from './commands/upload-media.js';

/*
 * Uploaded media (issue "the owner's portfolio without code"): receive, check, process, store
 * by content hash, list, delete. Files live flat in the media storage (MEDIA_DIR, or the
 * bucket's media/ prefix), served at /media/<file>; work in progress lives in the local
 * MEDIA_DIR/.incoming (never served: dot folders are not), so a refused upload leaves nothing
 * behind; only finished files are written to the storage. One file per command (commands/) and per query (queries/) over a
 * MediaContext; this factory assembles them.
 */

export interface Actor {
  id: string;
}

export interface MediaService {
  /** Where the stored files are (MEDIA_DIR, or the bucket). */
  readonly storage: ObjectStorage;
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

export function createMediaService(deps: {
  db: Db;
  config: MediaConfig;
  storage: ObjectStorage;
}): MediaService {
  const { db, config, storage } = deps;
  const ctx: MediaContext = {
    db,
    config,
    storage,
    incoming: path.join(config.dir, '.incoming'),
    sources: [],
  };
  return {
    storage,
    upload: (req, fileName, actor) => uploadMedia(ctx, req, fileName, actor),
    list: () => listMedia(ctx),
    usage: (id) => mediaUsage(ctx, id),
    delete: (id) => deleteMedia(ctx, id),
    removeUnusedMedia: (urls) => removeUnusedMedia(ctx, urls),
    addReferenceSource(source) {
      ctx.sources.push(source);
    },
    sweepIncoming: (now = Date.now()) => sweepIncoming(ctx, now),
  };
}
