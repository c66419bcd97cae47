import { describe, expect, it } from 'vitest';

import { MediaItem } from './gallery.js';
import { galleryItemOf, type StoredMedia } from './media.js';

const base = {
  id: '6f1c1f0e-3a44-4b8e-9a55-0d6f7c2a1b01',
  bytes: 1000,
  originalName: 'x',
  createdAt: '2026-11-27T10:00:00.000Z',
};

describe('galleryItemOf', () => {
  it('gives an uploaded image its size, widths and small copy', () => {
    const image: StoredMedia = {
      ...base,
      url: '/media/h-960.webp',
      type: 'image',
      mime: 'image/jpeg',
      width: 960,
      height: 640,
      thumbnail: '/media/h-thumb.webp',
      variants: [
        { src: '/media/h-320.webp', width: 320, type: 'image/webp' },
        { src: '/media/h-960.webp', width: 960, type: 'image/webp' },
      ],
    };
    const item = galleryItemOf(image);
    expect(MediaItem.parse(item)).toEqual({
      type: 'image',
      source: '/media/h-960.webp',
      thumbnail: '/media/h-thumb.webp',
      width: 960,
      height: 640,
      variants: image.variants,
    });
  });

  it("leaves a video's default thumbnail to the viewer", () => {
    const video: StoredMedia = {
      ...base,
      url: '/media/h.mp4',
      type: 'video',
      mime: 'video/mp4',
      width: 320,
      height: 180,
      duration: 4,
      thumbnail: '/assets/default_video_thumbnail.jpg',
      variants: [],
    };
    expect(MediaItem.parse(galleryItemOf(video))).toEqual({
      type: 'video',
      source: '/media/h.mp4',
    });
  });
});
