import type { GalleryProject } from '@portfolio/types';
import { useEffect, useEffectEvent, useRef } from 'react';

import { descriptionFor, thumbnailFor, wrapIndex } from './gallery-media';
import { MediaView } from './media-view';

interface GalleryViewerProps {
  project: GalleryProject;
  index: number;
  onSelect: (index: number) => void;
  onClose: () => void;
}

/** Keys typed into these keep their own meaning (a focused video seeks with the arrows). */
function isOwnKeyTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) {
    return false;
  }
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT', 'VIDEO', 'AUDIO'].includes(target.tagName)
  );
}

/** Pixels a finger must travel sideways, more than up or down, to count as a swipe. */
export const SWIPE_MIN_PX = 50;

/** -1 (to the previous item) for a swipe to the right, 1 for one to the left, else 0. */
export function swipeDirection(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) {
    return 0;
  }
  return dx > 0 ? -1 : 1;
}

/**
 * The gallery viewer (spec sections 2 and 4): the current item with wrap-around Previous/Next,
 * its description and a thumbnail strip. ArrowLeft/ArrowRight move, Escape closes.
 */
export function GalleryViewer({ project, index, onSelect, onClose }: GalleryViewerProps) {
  const count = project.media.length;
  const item = project.media[index] ?? project.media[0];
  const headingRef = useRef<HTMLHeadingElement>(null);
  const swipeStart = useRef<{ x: number; y: number } | null>(null);

  // Opening a project (or switching to another) moves focus into the viewer.
  useEffect(() => {
    headingRef.current?.focus();
  }, [project.id]);

  const handleKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (isOwnKeyTarget(event.target)) {
      return;
    }
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      onSelect(wrapIndex(index, event.key === 'ArrowLeft' ? -1 : 1, count));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => handleKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  if (!item) {
    return null;
  }
  return (
    <section className="gallery-viewer" aria-labelledby="gallery-viewer-title">
      <div className="gallery-viewer__bar">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close Viewer
        </button>
        <h2
          id="gallery-viewer-title"
          className="gallery-viewer__title"
          ref={headingRef}
          tabIndex={-1}
        >
          {project.title}
        </h2>
        {project.repositoryLink ? (
          <a
            className="button button--primary"
            href={project.repositoryLink}
            target="_blank"
            rel="noopener noreferrer"
          >
            View Repository
          </a>
        ) : null}
      </div>

      <div className="gallery-viewer__stage-row">
        <button
          type="button"
          className="button button--secondary gallery-viewer__step"
          onClick={() => onSelect(wrapIndex(index, -1, count))}
        >
          Previous Media
        </button>
        <div
          className="gallery-viewer__stage"
          data-media-type={item.type}
          // a sideways swipe on a touch screen moves like Previous/Next
          onTouchStart={(event) => {
            const touch = event.touches[0];
            swipeStart.current =
              event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
          }}
          onTouchEnd={(event) => {
            const start = swipeStart.current;
            const touch = event.changedTouches[0];
            swipeStart.current = null;
            if (!start || !touch) {
              return;
            }
            const direction = swipeDirection(touch.clientX - start.x, touch.clientY - start.y);
            if (direction !== 0) {
              onSelect(wrapIndex(index, direction, count));
            }
          }}
        >
          <MediaView item={item} projectTitle={project.title} position={index + 1} />
        </div>
        <button
          type="button"
          className="button button--secondary gallery-viewer__step"
          onClick={() => onSelect(wrapIndex(index, 1, count))}
        >
          Next Media
        </button>
      </div>

      <p className="gallery-viewer__position" aria-live="polite">
        {index + 1} / {count}
      </p>
      <p className="gallery-viewer__description">{descriptionFor(project, item)}</p>

      <ul className="gallery-viewer__thumbnails" aria-label="Media">
        {project.media.map((media, position) => {
          const label = `Thumbnail ${position + 1}`;
          const thumbnail = thumbnailFor(media);
          const isActive = position === index;
          return (
            <li key={`${position}-${media.source}`}>
              <button
                type="button"
                className={`gallery-thumbnail${isActive ? ' gallery-thumbnail--active' : ''}`}
                aria-current={isActive ? 'true' : undefined}
                onClick={() => onSelect(position)}
              >
                {thumbnail ? (
                  <img
                    src={thumbnail}
                    alt={label}
                    width={160}
                    height={90}
                    loading="lazy"
                    decoding="async"
                  />
                ) : (
                  <span className="gallery-thumbnail__text">{label}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
