import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import './gallery.css';
import { galleryProjects } from './gallery-data';
import { GalleryGrid } from './gallery-grid';
import { readSelection, selectionParams } from './gallery-media';
import { GalleryViewer } from './gallery-viewer';

/**
 * /Gallery: the grid of projects, or the viewer of one in its place. The open project and item
 * live in the query string, so Back, reloads and shared links show the same thing.
 */
export function GalleryPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const selection = readSelection(searchParams, galleryProjects);
  const projectId = selection?.project.id;

  const handleSelect = useCallback(
    (index: number) => {
      if (projectId === undefined) {
        return;
      }
      // moving between items replaces the entry: Back leaves the viewer, not the last item
      setSearchParams(selectionParams({ projectId, index }), { replace: true });
    },
    [projectId, setSearchParams],
  );
  const handleClose = useCallback(() => {
    setSearchParams(selectionParams(undefined));
  }, [setSearchParams]);

  // Closing the viewer (button, Escape or Back) returns focus to the card that opened it.
  const lastProjectId = useRef(projectId);
  useEffect(() => {
    const closed = lastProjectId.current;
    lastProjectId.current = projectId;
    if (projectId === undefined && closed !== undefined) {
      document.querySelector<HTMLElement>(`[data-project-id="${closed}"]`)?.focus();
    }
  }, [projectId]);

  return (
    <section className="page gallery-page" aria-labelledby="gallery-title">
      <h1 id="gallery-title">My Gallery</h1>
      {selection ? (
        <GalleryViewer
          project={selection.project}
          index={selection.index}
          onSelect={handleSelect}
          onClose={handleClose}
        />
      ) : (
        <GalleryGrid projects={galleryProjects} />
      )}
    </section>
  );
}
