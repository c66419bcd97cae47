import type { Tutorial } from '@portfolio/types';

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
 * The tutorials (spec section 3), edited by the site's owner: a C++ code item runs in the editor,
 * an Unreal code item is markdown, an iframe item embeds `iframeSrc` (its host must be allowed by
 * the CSP's frame-src: https://blueprintue.com is).
 */
export const tutorials: readonly Tutorial[] = [
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
