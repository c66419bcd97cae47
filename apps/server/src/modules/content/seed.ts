import type { Db } from '../../db/client.js';
import { contentSeeds, galleryProjects, tutorials } from '../../db/schema.js';
import { SEED_GALLERY, SEED_TUTORIALS } from './seed-content.js';

/*
 * The spec's content becomes the first rows, once per database: a seed runs in the
 * transaction that records it in content_seeds, so replicas starting together seed once (the
 * second waits on the first's row, then finds it), a restart never seeds again, and a table the
 * owner emptied stays empty. Every seeded row is published, in the spec's order.
 */

/** Runs the gallery and tutorial seeds that have not run on this database. */
export async function seedContent(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(contentSeeds)
      .values({ name: 'gallery' })
      .onConflictDoNothing()
      .returning({ name: contentSeeds.name });
    if (claimed.length === 0) {
      return;
    }
    if (SEED_GALLERY.length > 0) {
      await tx
        .insert(galleryProjects)
        .values(
          SEED_GALLERY.map((project, index) => ({
            id: project.id,
            title: project.title,
            description: project.description,
            thumbnail: project.thumbnail,
            repositoryLink: project.repositoryLink ?? null,
            media: [...project.media],
            position: index,
            published: true,
          })),
        )
        .onConflictDoNothing();
    }
  });
  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(contentSeeds)
      .values({ name: 'tutorials' })
      .onConflictDoNothing()
      .returning({ name: contentSeeds.name });
    if (claimed.length === 0) {
      return;
    }
    await tx
      .insert(tutorials)
      .values(
        SEED_TUTORIALS.map((tutorial, index) => ({
          id: tutorial.id,
          title: tutorial.title,
          section: tutorial.section,
          type: tutorial.type,
          content: tutorial.content,
          iframeSrc: tutorial.type === 'iframe' ? tutorial.iframeSrc : null,
          position: index,
          published: true,
        })),
      )
      .onConflictDoNothing();
  });
}
