import type { GalleryProject } from '@portfolio/types';
import { Link } from 'react-router';

import { selectionParams } from './gallery-media';

/** The generated card pictures are 320×180. */
const CARD_WIDTH = 320;
const CARD_HEIGHT = 180;

interface GalleryGridProps {
  projects: readonly GalleryProject[];
}

/**
 * The grid of project cards; each card is a link to its viewer (`?project=…&media=1`). The first
 * card's picture is the page's largest paint on a phone (one column): it loads at once and first;
 * the others load as they come near.
 */
export function GalleryGrid({ projects }: GalleryGridProps) {
  return (
    <ul className="gallery-grid">
      {projects.map((project, index) => {
        const titleId = `gallery-card-${project.id}-title`;
        const overlayId = `gallery-card-${project.id}-overlay`;
        const descriptionId = `gallery-card-${project.id}-description`;
        return (
          <li key={project.id}>
            <Link
              className="gallery-card"
              to={{ search: `?${selectionParams({ projectId: project.id, index: 0 }).toString()}` }}
              data-project-id={project.id}
              aria-labelledby={`${titleId} ${overlayId}`}
              aria-describedby={descriptionId}
            >
              <span className="gallery-card__media">
                <img
                  className="gallery-card__thumbnail"
                  src={project.thumbnail}
                  alt={project.title}
                  width={CARD_WIDTH}
                  height={CARD_HEIGHT}
                  loading={index === 0 ? undefined : 'lazy'}
                  fetchPriority={index === 0 ? 'high' : undefined}
                  decoding="async"
                />
                <span className="gallery-card__overlay" id={overlayId}>
                  View Details
                </span>
              </span>
              <span className="gallery-card__body">
                <span className="gallery-card__title" id={titleId}>
                  {project.title}
                </span>
                <span className="gallery-card__description" id={descriptionId}>
                  {project.description}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
