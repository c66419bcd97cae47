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
