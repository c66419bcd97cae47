import type { ContentAuditEntry, ContentKind } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { MediaUrlOf } from '../../lib/public-urls.js';
import { listContentAudit } from './audit.js';
import { createGalleryAdmin, type GalleryAdmin } from './gallery-admin.js';
import { seedContent } from './seed.js';
import { createSiteAdmin, type SiteAdmin } from './site-admin.js';
import { type ContentStore, createContentStore } from './store.js';
import { createTutorialsAdmin, type TutorialsAdmin } from './tutorials-admin.js';

/** Everything the content routes and the pages' HTML use, built once (container.ts). */
export interface Content {
  /** The published content in memory. */
  store: ContentStore;
  gallery: GalleryAdmin;
  tutorials: TutorialsAdmin;
  site: SiteAdmin;
  audit(filter: { kind?: ContentKind; itemId?: string }): Promise<ContentAuditEntry[]>;
}

/** Builds the content service, seeds the spec's content on a fresh database and reads it. */
export async function createContent(deps: {
  db: Db;
  bus: InvalidationBus;
  /** Told the addresses a deleted project showed (the media library removes unused uploads). */
  releaseMedia?: (urls: string[]) => Promise<unknown>;
  /** The public's address of an uploaded file (MEDIA_PUBLIC_URL's CDN). */
  mediaUrl?: MediaUrlOf;
}): Promise<Content> {
  const { db, bus, releaseMedia, mediaUrl } = deps;
  const store = createContentStore({ db, bus, ...(mediaUrl ? { mediaUrl } : {}) });
  await seedContent(db);
  await store.refresh();
  return {
    store,
    gallery: createGalleryAdmin({ db, store, releaseMedia }),
    tutorials: createTutorialsAdmin({ db, store }),
    site: createSiteAdmin({ db, store }),
    audit: (filter) => listContentAudit(db, filter),
  };
}
