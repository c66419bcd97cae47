import type { GalleryProject } from '@portfolio/types';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { usePageContent } from '../../ui/use-page-content';
import './gallery.css';
import { isGalleryProjects, listGallery } from './gallery-api';
import { GalleryGrid } from './gallery-grid';
import { MEDIA_PARAM, PROJECT_PARAM, readSelection, selectionParams } from './gallery-media';
import { GalleryViewer } from './gallery-viewer';

/**
 * /Gallery: the grid of projects, or the viewer of one in its place. The projects are the
 * owner's published ones (written into the page by the server, else `GET /api/gallery`).
 */
export function GalleryPage() {
  const content = usePageContent('gallery', isGalleryProjects, listGallery);
  return (
    <section className="page gallery-page" aria-labelledby="gallery-title">
      <h1 id="gallery-title">My Gallery</h1>
      {content.kind === 'loaded' ? (
        <Gallery projects={content.value} />
      ) : content.kind === 'loading' ? (
        <p className="gallery-page__status" role="status">
          Loading...
        </p>
      ) : (
        <div className="gallery-page__status" role="alert">
          <p>The gallery could not be loaded.</p>
          <button type="button" className="button" onClick={content.retry}>
            Try again
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * The grid, or the viewer of one project in its place. The open project and item live in the
 * query string, so Back, reloads and shared links show the same thing.
 */
export function Gallery({ projects }: { projects: readonly GalleryProject[] }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const selection = readSelection(searchParams, projects);
  const projectId = selection?.project.id;

  function handleSelect(index: number) {
    if (projectId === undefined) {
      return;
    }
    // moving between items replaces the entry: Back leaves the viewer, not the last item
    setSearchParams(selectionParams({ projectId, index }), { replace: true });
  }
  function handleClose() {
    setSearchParams(selectionParams(undefined));
  }

  // A link to an unknown project or item is corrected in place to what is shown.
  const canonical = selection
    ? selectionParams({ projectId: selection.project.id, index: selection.index }).toString()
    : '';
  const requested = searchParams.toString();
  const hasSelectionParam = searchParams.has(PROJECT_PARAM) || searchParams.has(MEDIA_PARAM);
  useEffect(() => {
    if (hasSelectionParam && requested !== canonical) {
      setSearchParams(new URLSearchParams(canonical), { replace: true });
    }
  }, [canonical, requested, hasSelectionParam, setSearchParams]);

  // Closing the viewer (button, Escape or Back) returns focus to the card that opened it.
  const lastProjectId = useRef(projectId);
  useEffect(() => {
    const closed = lastProjectId.current;
    lastProjectId.current = projectId;
    if (projectId === undefined && closed !== undefined) {
      document.querySelector<HTMLElement>(`[data-project-id="${closed}"]`)?.focus();
    }
  }, [projectId]);

  return selection ? (
    <GalleryViewer
      project={selection.project}
      index={selection.index}
      onSelect={handleSelect}
      onClose={handleClose}
    />
  ) : (
    <GalleryGrid projects={projects} />
  );
}
