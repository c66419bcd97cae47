import type { GalleryProject, HomeTexts, Tutorial } from '@portfolio/types';

/*
 * The spec's fixed content (section 3), moved here from the web app: the first rows
 * of a fresh database, seeded once (seed.ts). From then on the owner edits it in the admin's
 * Content section. Local files live in apps/web/public/assets/gallery (made by
 * apps/web/scripts/make-gallery-assets.sh). A video whose source is a YouTube or Vimeo address is
 * embedded in a frame; a video or audio item without a thumbnail shows the default one.
 */

export const SEED_GALLERY: readonly GalleryProject[] = [
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

const HELLO_WORLD = `#include <iostream>

int main() {
    std::cout << "Hello, World!" << std::endl;
    return 0;
}
`;

const MULTIPLAYER_FRAMEWORK = `Unreal Engine splits a multiplayer game into framework classes. Each lives on the server, on
the clients or on both, and replication decides what the other side can see. Knowing where an
object exists tells you where its code can run and what it may trust.

| Class | Server instances | Client instances | Network presence | Details |
| --- | --- | --- | --- | --- |
| GameInstance | One per server process | One per client process | Not replicated | Lives for the whole run of the program, across map changes; the place for session management, online subsystems and data that must survive travel. |
| GameMode | One per map | None | Server only | Holds the rules: who may join, where players spawn, when the match starts and ends. Clients never see it, so anything they need goes through the GameState. |
| GameState | One per map | One copy per client | Replicated to all clients | The shared state of the match: scores, match phase, the list of PlayerStates, elapsed time. Every client reads it; only the server changes it. |
| PlayerController | One per player | Only the owning player's | Replicated to the owning client | A player's will: input, camera, UI and the RPCs a client sends to the server. Other players' controllers do not exist on your machine. |
| PlayerState | One per player | One per player on every client | Replicated to all clients | Public facts about a player: name, score, ping, team. Survives the death of the pawn, so it is where lasting per-player data lives. |
| Pawn/Character | One per spawned pawn | One per relevant pawn | Replicated to relevant clients | The body in the world. Movement is predicted on the owning client and corrected by the server; Character adds the replicated CharacterMovementComponent. |
| HUD | None on a dedicated server | One per local player | Not replicated, local only | Draws the interface for one local player from replicated data (GameState, PlayerState); create widgets here or from the PlayerController. |
| PlayerCameraManager | One per PlayerController (no view on a dedicated server) | One per local player | Not replicated, local only | Computes the final view (location, rotation, field of view, camera shakes) for its PlayerController. |
| SpectatorPawn | Only while a player spectates | One for the local spectator | Not replicated, local only | A free-flying pawn used while spectating or waiting to respawn; it collides with nothing and no one else sees it. |

#### Checklist for a new replicated actor

- [x] Set \`bReplicates = true\` in the constructor
- [x] List replicated properties in \`GetLifetimeReplicatedProps\`
- [ ] Decide who owns it, so client RPCs are accepted[^owner]
- [ ] Test with two clients and a listen server in the editor

~~Trust values sent by clients~~: validate every server RPC on the server.

The [Epic Games Launcher](com.epicgames.launcher://apps) installs the engine; the networking
reference lives at https://dev.epicgames.com/documentation/en-us/unreal-engine/networking-and-multiplayer-in-unreal-engine.

[^owner]: A Server RPC is only accepted from the client that owns the actor (its connection's
PlayerController, directly or through the owner chain).
`;

/**
 * The spec's three tutorials: a C++ code item runs in the editor, an Unreal code item is
 * markdown, an iframe item embeds `iframeSrc` (its host must be allowed by the CSP's frame-src:
 * https://blueprintue.com is).
 */
export const SEED_TUTORIALS: readonly Tutorial[] = [
  {
    id: 'cpp-hello-world',
    title: 'Hello, World! in C++',
    type: 'code',
    section: 'cpp',
    content: HELLO_WORLD,
  },
  {
    id: 'unreal-blueprint-example',
    title: 'Unreal Blueprint Example',
    type: 'iframe',
    section: 'unreal',
    content: 'An Unreal Engine blueprint graph in an embedded viewer: drag to pan, scroll to zoom.',
    iframeSrc: 'https://blueprintue.com/render/0yqu0a4n/',
  },
  {
    id: 'unreal-multiplayer-framework',
    title: 'The Unreal Multiplayer Framework',
    type: 'code',
    section: 'unreal',
    content: MULTIPLAYER_FRAMEWORK,
  },
];

/** The home page's intro and its three cards (spec section 1), until the owner edits them. */
export const SEED_HOME: HomeTexts = {
  title: 'Welcome to my portfolio',
  lead: 'I am a passionate game developer and designer. Here you can play my games, explore my projects and learn from my tutorials.',
  cards: [
    {
      title: 'Games',
      text: 'Play single-player and multiplayer browser games made with GameMaker, Godot and more.',
    },
    {
      title: 'Gallery',
      text: 'Browse projects, prototypes and visual effects with videos and screenshots.',
    },
    {
      title: 'Tutorials',
      text: 'Learn C++ and Unreal Engine with runnable code samples and guides.',
    },
  ],
};
