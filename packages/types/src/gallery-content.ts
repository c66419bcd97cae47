import type { GalleryProject } from './gallery.js';

/**
 * The gallery's content (spec section 3), edited by the site's owner. Local files live in
 * apps/web/public/assets/gallery (made by apps/web/scripts/make-gallery-assets.sh). A video whose
 * source is a YouTube or Vimeo address is embedded in a frame; a video or audio item without a
 * thumbnail shows the default one. `apps/web/src/features/gallery/gallery-data.test.ts` checks every entry against the contract.
 */
export const galleryProjects: readonly GalleryProject[] = [
  {
    id: 'item1',
    title: 'Visuals and VFX',
    description:
      'Real-time effects and shader studies: particles, distortion and stylised lighting built for games.',
    thumbnail: '/assets/gallery/visuals-card.webp',
    media: [
      {
        type: 'video',
        source: '/assets/gallery/vfx-reel.mp4',
        description: 'Effects reel: a fractal zoom rendered as a looping background effect.',
      },
      {
        type: 'image',
        source: '/assets/gallery/vfx-plasma.webp',
        description: 'Plasma shader study: layered noise with a warm-to-cold colour ramp.',
      },
      {
        type: 'image',
        source: '/assets/gallery/vfx-nebula.webp',
        description: 'Nebula particles: a swirl field drives thousands of additive sprites.',
      },
      {
        type: 'image',
        source: '/assets/gallery/vfx-shockwave.webp',
        description: 'Shockwave ring: a screen-space distortion pass for explosions.',
      },
      {
        type: 'image',
        source: '/assets/gallery/vfx-embers.webp',
      },
      {
        type: 'image',
        source: '/assets/gallery/vfx-frost.webp',
        description: 'Frost crystals: an implode distortion over a cold noise texture.',
      },
    ],
  },
  {
    id: 'item2',
    title: 'Prototype Online',
    description:
      'An online multiplayer prototype: lobby, matchmaking and a small arena to test netcode.',
    thumbnail: '/assets/gallery/prototype-card.webp',
    repositoryLink: 'https://github.com/gamedev-portfolio/prototype-online',
    media: [
      {
        type: 'video',
        source: '/assets/gallery/prototype-playtest.mp4',
        description: 'Playtest capture of the simulation that drives the arena hazards.',
      },
      {
        type: 'image',
        source: '/assets/gallery/proto-lobby.webp',
        description: 'The lobby: players join a session and ready up before the match.',
      },
      {
        type: 'image',
        source: '/assets/gallery/proto-arena.webp',
        description: 'Arena blockout: cover, spawn points and the central capture zone.',
      },
    ],
  },
  {
    id: 'item3',
    title: 'ProjectX',
    description:
      'A long-running action project, documented in a video series from first prototype to vertical slice.',
    thumbnail: '/assets/gallery/projectx-card.webp',
    repositoryLink: 'https://github.com/gamedev-portfolio/projectx',
    media: [
      {
        type: 'video',
        source: 'https://www.youtube.com/watch?v=M7lc1UVf-VE',
        thumbnail: '/assets/gallery/projectx-trailer-1.webp',
        description: 'Part 1: the first playable prototype.',
      },
      {
        type: 'video',
        source: 'https://youtu.be/aqz-KE-bpKQ',
        thumbnail: '/assets/gallery/projectx-trailer-2.webp',
        description: 'Part 2: movement and combat.',
      },
      {
        type: 'video',
        source: 'https://vimeo.com/76979871',
        thumbnail: '/assets/gallery/projectx-trailer-3.webp',
        description: 'Part 3: enemy behaviour.',
      },
      {
        type: 'video',
        source: 'https://www.youtube.com/embed/ScMzIvxBSi4',
        thumbnail: '/assets/gallery/projectx-trailer-4.webp',
        description: 'Part 4: level design pass.',
      },
      {
        type: 'video',
        source: 'https://player.vimeo.com/video/22439234',
        thumbnail: '/assets/gallery/projectx-trailer-5.webp',
        description: 'Part 5: lighting and effects.',
      },
      {
        type: 'video',
        source: 'https://www.youtube.com/watch?v=YE7VzlLtp-4',
        thumbnail: '/assets/gallery/projectx-trailer-6.webp',
        description: 'Part 6: the vertical slice.',
      },
      {
        type: 'video',
        source: '/assets/gallery/projectx-devlog.mp4',
        description: 'Devlog: the procedural pattern used for the loading screen.',
      },
    ],
  },
];
