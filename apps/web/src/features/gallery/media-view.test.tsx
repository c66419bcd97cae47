import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MediaView } from './media-view';

function renderItem(type: string, source: string) {
  return render(<MediaView item={{ type, source }} projectTitle="ProjectX" position={2} />);
}

describe('MediaView', () => {
  it('shows an image with the project title as its text and its size set', () => {
    const { container } = renderItem('image', '/assets/gallery/a.webp');
    const image = container.querySelector('img');
    expect(image).toHaveAttribute('alt', 'ProjectX');
    expect(image).toHaveAttribute('src', '/assets/gallery/a.webp');
    expect(image).toHaveAttribute('width', '960');
    expect(image).toHaveAttribute('height', '540');
  });

  it('embeds YouTube and Vimeo videos in a named frame', () => {
    const youtube = renderItem('video', 'https://youtu.be/aqz-KE-bpKQ');
    const frame = youtube.container.querySelector('iframe');
    expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
    expect(frame).toHaveAttribute('title', 'ProjectX – video 2');
    expect(youtube.container.querySelector('video')).toBeNull();
    youtube.unmount();

    const vimeo = renderItem('video', 'https://vimeo.com/76979871');
    expect(vimeo.container.querySelector('iframe')).toHaveAttribute(
      'src',
      'https://player.vimeo.com/video/76979871',
    );
  });

  it('plays any other video in a video element with controls, mp4 and the fallback text', () => {
    const { container } = renderItem('video', '/assets/gallery/clip.mp4');
    const video = container.querySelector('video');
    expect(video).toHaveAttribute('controls');
    expect(video?.querySelector('source')).toHaveAttribute('type', 'video/mp4');
    expect(video?.querySelector('source')).toHaveAttribute('src', '/assets/gallery/clip.mp4');
    expect(video).toHaveTextContent('Your browser does not support the video tag.');
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('plays audio in an audio element with controls, mpeg and the fallback text', () => {
    const { container } = renderItem('audio', '/assets/gallery/theme.mp3');
    const audio = container.querySelector('audio');
    expect(audio).toHaveAttribute('controls');
    expect(audio?.querySelector('source')).toHaveAttribute('type', 'audio/mpeg');
    expect(audio).toHaveTextContent('Your browser does not support the audio element.');
  });

  it('renders nothing for an unknown type', () => {
    const { container } = renderItem('hologram', '/assets/gallery/x.bin');
    expect(container).toBeEmptyDOMElement();
  });
});

describe('MediaView with an uploaded image', () => {
  const uploaded = {
    type: 'image',
    source: '/media/abc-1280.webp',
    width: 1280,
    height: 720,
    variants: [
      { src: '/media/abc-320.webp', width: 320, type: 'image/webp' },
      { src: '/media/abc-640.webp', width: 640, type: 'image/webp' },
      { src: '/media/abc-1280.webp', width: 1280, type: 'image/webp' },
    ],
  };

  it('offers every width in srcset with sizes, and keeps its own size for no layout shift', () => {
    const { container } = render(
      <MediaView item={uploaded} projectTitle="ProjectX" position={1} />,
    );
    const image = container.querySelector('img');
    expect(image).toHaveAttribute(
      'srcset',
      '/media/abc-320.webp 320w, /media/abc-640.webp 640w, /media/abc-1280.webp 1280w',
    );
    expect(image).toHaveAttribute('sizes', '(min-width: 1120px) 970px, 100vw');
    expect(image).toHaveAttribute('src', '/media/abc-1280.webp');
    expect(image).toHaveAttribute('width', '1280');
    expect(image).toHaveAttribute('height', '720');
  });

  it('gives an uploaded WebM video and OGG audio their own source types', () => {
    const video = render(
      <MediaView
        item={{ type: 'video', source: '/media/abc.webm' }}
        projectTitle="P"
        position={1}
      />,
    );
    expect(video.container.querySelector('source')).toHaveAttribute('type', 'video/webm');
    video.unmount();
    const audio = render(
      <MediaView
        item={{ type: 'audio', source: '/media/abc.ogg' }}
        projectTitle="P"
        position={1}
      />,
    );
    expect(audio.container.querySelector('source')).toHaveAttribute('type', 'audio/ogg');
  });
});
