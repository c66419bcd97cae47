import { eq } from 'drizzle-orm';

import type {
  AdminGalleryProject,
  CreateGalleryProjectRequest,
  UpdateGalleryProjectRequest,
} from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { galleryProjects } from '../../db/schema.js';
import type { Actor } from '../../access/audit.js';
import { changedFields, publishAction } from './edit-helpers.js';
import { orderedItems } from './ordered-items.js';
import { type ContentStore, galleryOrder, mediaOf, toAdminGalleryProject } from './store.js';

/** The admin's gallery commands: each one writes its audit entry in its transaction. */
export interface GalleryAdmin {
  list(): Promise<AdminGalleryProject[]>;
  create(input: CreateGalleryProjectRequest, actor: Actor): Promise<AdminGalleryProject>;
  update(
    id: string,
    input: UpdateGalleryProjectRequest,
    actor: Actor,
  ): Promise<AdminGalleryProject>;
  delete(id: string, actor: Actor): Promise<void>;
  reorder(ids: readonly string[], actor: Actor): Promise<AdminGalleryProject[]>;
  /** Whether any project (draft or published) shows one of `urls`: the media library asks. */
  /** The titles of the projects that show any of `urls`. */
  titlesUsingMedia(urls: readonly string[]): Promise<string[]>;
}

/** Every address a project's row shows: its thumbnail, and each item's source, thumbnail, copies. */
function mediaUrlsOf(row: { thumbnail: string; media: unknown[] }): string[] {
  const urls = [row.thumbnail];
  for (const item of mediaOf(row)) {
    urls.push(item.source);
    if (item.thumbnail) {
      urls.push(item.thumbnail);
    }
    for (const variant of item.variants ?? []) {
      urls.push(variant.src);
    }
  }
  return urls;
}

const GALLERY = orderedItems({
  table: galleryProjects,
  kind: 'gallery',
  noun: 'gallery project',
  fallbackId: 'project',
});

export function createGalleryAdmin(deps: {
  db: Db;
  store: ContentStore;
  /** Told the addresses a deleted project showed: uploads nothing else uses are removed. */
  releaseMedia?: (urls: string[]) => Promise<unknown>;
}): GalleryAdmin {
  const { db, store, releaseMedia } = deps;

  const list = async () =>
    (
      await db
        .select()
        .from(galleryProjects)
        .orderBy(...galleryOrder)
    ).map(toAdminGalleryProject);

  return {
    list,

    async create(input, actor) {
      const row = await db.transaction(async (tx) => {
        const id = await GALLERY.newId(tx, input.id, input.title);
        const [inserted] = await tx
          .insert(galleryProjects)
          .values({
            id,
            title: input.title,
            description: input.description,
            thumbnail: input.thumbnail,
            repositoryLink: input.repositoryLink || null,
            media: input.media,
            position: await GALLERY.nextPosition(tx),
            published: input.published ?? false,
          })
          .returning();
        if (!inserted) {
          throw GALLERY.taken(id);
        }
        await GALLERY.recordCreated(tx, inserted, actor);
        return inserted;
      });
      await store.changed();
      return toAdminGalleryProject(row);
    },

    async update(id, input, actor) {
      const row = await db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(galleryProjects)
          .where(eq(galleryProjects.id, id))
          .for('update');
        if (!before) {
          throw GALLERY.noSuch(id);
        }
        const changes = {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.thumbnail !== undefined ? { thumbnail: input.thumbnail } : {}),
          ...(input.repositoryLink !== undefined
            ? { repositoryLink: input.repositoryLink || null }
            : {}),
          ...(input.media !== undefined ? { media: input.media } : {}),
          ...(input.published !== undefined ? { published: input.published } : {}),
        };
        const [after] = await tx
          .update(galleryProjects)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(galleryProjects.id, id))
          .returning();
        if (!after) {
          throw GALLERY.noSuch(id);
        }
        const fields = changedFields(
          { ...before, media: mediaOf(before) },
          { ...after, media: mediaOf(after) },
          {
            title: 'title',
            description: 'description',
            thumbnail: 'thumbnail',
            repositoryLink: 'repository link',
            media: 'media',
          },
        );
        await GALLERY.recordEdited(
          tx,
          id,
          publishAction(before.published, after.published, fields),
          actor,
        );
        return after;
      });
      await store.changed();
      return toAdminGalleryProject(row);
    },

    async delete(id, actor) {
      const deleted = await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(galleryProjects)
          .where(eq(galleryProjects.id, id))
          .returning();
        if (!deleted) {
          throw GALLERY.noSuch(id);
        }
        await GALLERY.recordDeleted(tx, deleted, actor);
        return deleted;
      });
      await store.changed();
      await releaseMedia?.(mediaUrlsOf(deleted));
    },

    async titlesUsingMedia(urls) {
      const wanted = new Set(urls);
      const rows = await db
        .select({
          title: galleryProjects.title,
          thumbnail: galleryProjects.thumbnail,
          media: galleryProjects.media,
        })
        .from(galleryProjects);
      return rows
        .filter((row) => mediaUrlsOf(row).some((url) => wanted.has(url)))
        .map((row) => row.title);
    },

    async reorder(ids, actor) {
      await db.transaction((tx) => GALLERY.reorder(tx, ids, actor));
      await store.changed();
      return list();
    },
  };
}
