import type { AdminGalleryProject, AdminTutorial } from '@portfolio/types/content';
import { galleryItemOf } from '@portfolio/types/media';
import { Navigate, NavLink, useRoutes } from 'react-router';

import { ErrorPage, NOT_FOUND } from '../../ui/error-page';
import { serverMessageOr } from '../../lib/server-message';
import { AdminNav } from '../../ui/admin-nav';
import { MediaUpload } from '../admin-media';
import {
  createGalleryProject,
  createTutorial,
  listAdminGallery,
  listAdminTutorials,
  updateGalleryProject,
  updateTutorial,
} from './admin-content-api';
import { ContentSection } from './content-section';
import { emptyGalleryValues, GalleryForm, galleryValuesOf } from './gallery-form';
import { SiteTextsTab } from './site-texts-tab';
import { emptyTutorialValues, TutorialForm, tutorialValuesOf } from './tutorial-form';

import '../admin-games/admin-games.css';
import './admin-content.css';

const SECTION_LABELS = { cpp: 'C++', unreal: 'Unreal Engine' } as const;
const TYPE_LABELS = { code: 'code', markdown: 'markdown', iframe: 'embedded page' } as const;

/** Rejects with the server's message (or the fallback), which the form shows. */
async function withMessage(action: Promise<void>, fallback: string): Promise<void> {
  try {
    await action;
  } catch (error) {
    throw new Error(serverMessageOr(error, fallback), { cause: error });
  }
}

/**
 * The admin's Content section: /admin/content/gallery, /tutorials and /site: the
 * owner's gallery, tutorials, home texts and site name edited in the browser.
 */
export function AdminContentSection() {
  const page = useRoutes([
    { index: true, element: <Navigate to="gallery" replace /> },
    { path: 'gallery', element: <GalleryTab /> },
    { path: 'tutorials', element: <TutorialsTab /> },
    { path: 'site', element: <SiteTextsTab /> },
    { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
  ]);
  return (
    <section className="page admin-games admin-content" aria-labelledby="admin-content-title">
      <header className="admin-dashboard__header">
        <h1 id="admin-content-title">Content</h1>
      </header>
      <AdminNav />
      <nav className="admin-content__tabs" aria-label="Content">
        <NavLink to="/admin/content/gallery" className="admin-content__tab">
          Gallery
        </NavLink>
        <NavLink to="/admin/content/tutorials" className="admin-content__tab">
          Tutorials
        </NavLink>
        <NavLink to="/admin/content/site" className="admin-content__tab">
          Home &amp; site
        </NavLink>
      </nav>
      {page}
    </section>
  );
}

function GalleryTab() {
  return (
    <ContentSection<AdminGalleryProject>
      section="gallery"
      kind="gallery"
      noun="project"
      label="Gallery projects"
      load={listAdminGallery}
      renderForm={(project, onSaved, onCancel) => (
        <GalleryForm
          key={project?.id ?? 'new'}
          initial={project ? galleryValuesOf(project) : emptyGalleryValues()}
          isNew={project === null}
          submitLabel={project ? 'Save changes' : 'Add project'}
          uploadSlot={(addItem) => (
            <MediaUpload
              label="Upload an item"
              onUploaded={(item) => addItem(galleryItemOf(item))}
            />
          )}
          thumbnailUploadSlot={(setThumbnail) => (
            <MediaUpload
              label="Upload a card thumbnail"
              inputLabel="Card thumbnail file"
              onUploaded={(item) => setThumbnail(item.thumbnail)}
            />
          )}
          onCancel={onCancel}
          onSubmit={async (body) => {
            if (project) {
              const { id: _id, ...changes } = body;
              await withMessage(updateGalleryProject(project.id, changes), 'Failed to save');
            } else {
              await withMessage(
                createGalleryProject({ ...body, published: false }),
                'Failed to add the project',
              );
            }
            await onSaved();
          }}
        />
      )}
    />
  );
}

function TutorialsTab() {
  return (
    <ContentSection<AdminTutorial & { detail: string }>
      section="tutorials"
      kind="tutorial"
      noun="tutorial"
      label="Tutorials"
      load={loadTutorials}
      renderForm={(tutorial, onSaved, onCancel) => (
        <TutorialForm
          key={tutorial?.id ?? 'new'}
          initial={tutorial ? tutorialValuesOf(tutorial) : emptyTutorialValues()}
          isNew={tutorial === null}
          submitLabel={tutorial ? 'Save changes' : 'Add tutorial'}
          onCancel={onCancel}
          onSubmit={async (body) => {
            if (tutorial) {
              const { id: _id, ...changes } = body;
              await withMessage(updateTutorial(tutorial.id, changes), 'Failed to save');
            } else {
              await withMessage(
                createTutorial({ ...body, published: false }),
                'Failed to add the tutorial',
              );
            }
            await onSaved();
          }}
        />
      )}
    />
  );
}

/** The tutorials with their section and type as the list's second line. */
async function loadTutorials(signal?: AbortSignal) {
  return (await listAdminTutorials(signal)).map((tutorial) => ({
    ...tutorial,
    detail: `${SECTION_LABELS[tutorial.section]}, ${TYPE_LABELS[tutorial.type]}`,
  }));
}
