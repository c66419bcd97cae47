import type { GalleryProject, Tutorial } from '@portfolio/types';
import { lazy, Suspense } from 'react';

// the public pages' own components, fetched when a preview opens (not part of the admin chunk)
const Gallery = lazy(() =>
  import('../gallery/gallery-page').then((module) => ({ default: module.Gallery })),
);
const TutorialSections = lazy(() =>
  import('../tutorials/tutorials-page').then((module) => ({ default: module.TutorialSections })),
);

/** A draft project as /Gallery shows it: its card, and its viewer when the card is opened. */
export function GalleryPreview({ project }: { project: GalleryProject }) {
  return (
    <section className="content-preview gallery-page" aria-label="Preview">
      <h3>Preview</h3>
      {project.media.length === 0 ? (
        <p className="admin-muted">Add a media item with a source to see the viewer.</p>
      ) : null}
      <Suspense fallback={<p className="admin-muted">Loading...</p>}>
        <Gallery projects={[project]} />
      </Suspense>
    </section>
  );
}

/** A draft tutorial as /Tutorials shows it (code box, markdown or frame). */
export function TutorialPreview({ tutorial }: { tutorial: Tutorial }) {
  return (
    <section className="content-preview tutorials-page" aria-label="Preview">
      <h3>Preview</h3>
      <Suspense fallback={<p className="admin-muted">Loading...</p>}>
        <TutorialSections tutorials={[tutorial]} />
      </Suspense>
    </section>
  );
}
