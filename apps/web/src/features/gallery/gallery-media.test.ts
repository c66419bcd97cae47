import type { GalleryProject } from '@portfolio/types';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_AUDIO_THUMBNAIL,
  DEFAULT_VIDEO_THUMBNAIL,
  descriptionFor,
  readSelection,
  selectionParams,
  thumbnailFor,
  videoEmbedUrl,
  wrapIndex,
} from './gallery-media';

const described = { type: 'image', source: '/assets/a.webp', description: 'Own description' };
const undescribed = { type: 'video', source: '/assets/b.mp4' };
const project: GalleryProject = {
  id: 'p1',
  title: 'Project',
  description: 'The project description',
  thumbnail: '/assets/p1.webp',
  media: [described, undescribed, { type: 'audio', source: '/assets/c.mp3' }],
};

describe('wrapIndex', () => {
  it('moves forward and back and wraps at both ends', () => {
    expect(wrapIndex(0, 1, 3)).toBe(1);
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(1, -1, 3)).toBe(0);
    expect(wrapIndex(0, -7, 3)).toBe(2);
  });

  it('stays at 0 for a single item or an empty list', () => {
    expect(wrapIndex(0, 1, 1)).toBe(0);
    expect(wrapIndex(0, -1, 1)).toBe(0);
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });
});

describe('thumbnailFor', () => {
  it("uses an item's own thumbnail first", () => {
    expect(thumbnailFor({ type: 'video', source: 'x.mp4', thumbnail: '/t.webp' })).toBe('/t.webp');
    expect(thumbnailFor({ type: 'audio', source: 'x.mp3', thumbnail: '/a.webp' })).toBe('/a.webp');
  });

  it("falls back to an image's source and the defaults for video and audio", () => {
    expect(thumbnailFor({ type: 'image', source: '/img.webp' })).toBe('/img.webp');
    expect(thumbnailFor({ type: 'video', source: '/v.mp4' })).toBe(DEFAULT_VIDEO_THUMBNAIL);
    expect(DEFAULT_VIDEO_THUMBNAIL).toBe('/assets/default_video_thumbnail.jpg');
    expect(thumbnailFor({ type: 'audio', source: '/a.mp3' })).toBe(DEFAULT_AUDIO_THUMBNAIL);
    expect(DEFAULT_AUDIO_THUMBNAIL).toBe('/assets/default_audio_thumbnail.jpg');
  });

  it("uses an uploaded image's smallest copy, not its largest", () => {
    const variants = [
      { src: '/media/h-320.webp', width: 320, type: 'image/webp' },
      { src: '/media/h-1280.webp', width: 1280, type: 'image/webp' },
    ];
    expect(thumbnailFor({ type: 'image', source: '/media/h-1280.webp', variants })).toBe(
      '/media/h-320.webp',
    );
  });

  it('has nothing for an unknown type without a thumbnail', () => {
    expect(thumbnailFor({ type: 'model3d', source: '/m.glb' })).toBeUndefined();
  });
});

describe('descriptionFor', () => {
  it("prefers the item's description, else the project's", () => {
    expect(descriptionFor(project, described)).toBe('Own description');
    expect(descriptionFor(project, undescribed)).toBe('The project description');
  });
});

describe('videoEmbedUrl', () => {
  it('turns YouTube watch, short, embed and nocookie links into the privacy-enhanced embed', () => {
    const embed = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ';
    expect(videoEmbedUrl('https://www.youtube.com/watch?v=aqz-KE-bpKQ')).toBe(embed);
    expect(videoEmbedUrl('https://youtube.com/watch?feature=share&v=aqz-KE-bpKQ')).toBe(embed);
    expect(videoEmbedUrl('https://youtu.be/aqz-KE-bpKQ?t=10')).toBe(embed);
    expect(videoEmbedUrl('https://www.youtube.com/embed/aqz-KE-bpKQ')).toBe(embed);
    expect(videoEmbedUrl('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ')).toBe(embed);
    expect(videoEmbedUrl('https://www.youtube.com/shorts/aqz-KE-bpKQ')).toBe(embed);
  });

  it('turns Vimeo page and player links into the player', () => {
    expect(videoEmbedUrl('https://vimeo.com/76979871')).toBe(
      'https://player.vimeo.com/video/76979871',
    );
    expect(videoEmbedUrl('https://player.vimeo.com/video/22439234?h=abc')).toBe(
      'https://player.vimeo.com/video/22439234',
    );
  });

  it('leaves local files, other hosts and look-alikes to the video element', () => {
    expect(videoEmbedUrl('/assets/gallery/vfx-reel.mp4')).toBeUndefined();
    expect(videoEmbedUrl('https://cdn.example.com/youtube.com/clip.mp4')).toBeUndefined();
    expect(videoEmbedUrl('https://youtube.com.evil.example/watch?v=aqz-KE-bpKQ')).toBeUndefined();
    expect(videoEmbedUrl('https://www.youtube.com/watch?v=<script>')).toBeUndefined();
    expect(videoEmbedUrl('javascript:alert(1)//youtube.com')).toBeUndefined();
  });
});

describe('readSelection and selectionParams', () => {
  const projects = [project];

  it('reads the project and the 1-based media number', () => {
    const selection = readSelection(new URLSearchParams('project=p1&media=3'), projects);
    expect(selection?.project.id).toBe('p1');
    expect(selection?.index).toBe(2);
  });

  it('shows the grid for no or an unknown project, the first item for a bad number', () => {
    expect(readSelection(new URLSearchParams(''), projects)).toBeUndefined();
    expect(readSelection(new URLSearchParams('project=nope'), projects)).toBeUndefined();
    for (const media of ['0', '4', '-1', '1.5', 'x', '']) {
      expect(readSelection(new URLSearchParams(`project=p1&media=${media}`), projects)?.index).toBe(
        0,
      );
    }
    expect(readSelection(new URLSearchParams('project=p1'), projects)?.index).toBe(0);
  });

  it('writes what it reads', () => {
    const params = selectionParams({ projectId: 'p1', index: 1 });
    expect(params.toString()).toBe('project=p1&media=2');
    expect(readSelection(params, projects)?.index).toBe(1);
    expect(selectionParams(undefined).toString()).toBe('');
  });
});
