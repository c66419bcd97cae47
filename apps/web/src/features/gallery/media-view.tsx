import type { MediaItem } from '@portfolio/types';

import { sourceTypeFor, srcSetFor, videoEmbedUrl } from './gallery-media';

/** Every media item is shown in a 16:9 stage; the generated pictures are 960×540. */
export const MEDIA_WIDTH = 960;
export const MEDIA_HEIGHT = 540;
/**
 * How wide the stage is drawn: at most ~970 px (the 1120 px content column less its padding and
 * the Previous/Next buttons), else about the window's width.
 */
export const MEDIA_SIZES = '(min-width: 1120px) 970px, 100vw';

interface MediaViewProps {
  item: MediaItem;
  /** The project's title: the picture's alternative text and the frame's name. */
  projectTitle: string;
  /** 1-based position, so every frame and player has its own accessible name. */
  position: number;
}

/**
 * One media item as the spec renders it: a picture, a YouTube/Vimeo frame, a video or audio
 * player with its fallback text, or nothing for an unknown type.
 */
export function MediaView({ item, projectTitle, position }: MediaViewProps) {
  switch (item.type) {
    case 'image': {
      // an uploaded image: the browser picks the copy for the screen, its own size kept
      const srcSet = srcSetFor(item);
      return (
        <img
          // a new element per source, so the old picture never shows while the new one loads
          key={item.source}
          className="media-view__image"
          src={item.source}
          srcSet={srcSet}
          sizes={srcSet ? MEDIA_SIZES : undefined}
          alt={projectTitle}
          width={item.width ?? MEDIA_WIDTH}
          height={item.height ?? MEDIA_HEIGHT}
          decoding="async"
        />
      );
    }
    case 'video': {
      const embed = videoEmbedUrl(item.source);
      if (embed) {
        return (
          <iframe
            className="media-view__frame"
            src={embed}
            title={`${projectTitle} – video ${position}`}
            width={MEDIA_WIDTH}
            height={MEDIA_HEIGHT}
            allow="accelerometer; encrypted-media; fullscreen; gyroscope; picture-in-picture"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            loading="lazy"
          />
        );
      }
      return (
        <video
          // a new element per source, so switching items never keeps the old picture
          key={item.source}
          className="media-view__video"
          controls
          preload="metadata"
          width={MEDIA_WIDTH}
          height={MEDIA_HEIGHT}
          aria-label={`${projectTitle} – video ${position}`}
        >
          <source src={item.source} type={sourceTypeFor(item)} />
          Your browser does not support the video tag.
        </video>
      );
    }
    case 'audio':
      return (
        <audio
          key={item.source}
          className="media-view__audio"
          controls
          preload="metadata"
          aria-label={`${projectTitle} – audio ${position}`}
        >
          <source src={item.source} type={sourceTypeFor(item)} />
          Your browser does not support the audio element.
        </audio>
      );
    default:
      return null;
  }
}
