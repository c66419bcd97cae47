import type { GameAccess } from '@portfolio/types';
import type {
  BuildEngine,
  GameFrameMode,
  GameOrientation,
  GameSection,
  GameTouchSupport,
} from '@portfolio/types/game-host';

/** The section names of the /games page, as an admin picks them. */
export const SECTION_LABELS: Record<GameSection, string> = {
  multiplayer: 'Multiplayer',
  gamemaker: 'GameMaker',
  godot: 'Godot',
  html5: 'Other HTML5',
};

export const ACCESS_LABELS: Record<GameAccess, string> = {
  public: 'Public',
  subscriber: 'Subscriber',
};

/** How the viewer sizes a game's frame. */
export const FRAME_MODE_LABELS: Record<GameFrameMode, string> = {
  default: 'Standard frame (100% × 800 px)',
  fixed: 'Fixed size, scaled to fit',
  aspect: 'Aspect ratio',
};

export const TOUCH_LABELS: Record<GameTouchSupport, string> = {
  playable: 'Playable',
  'keyboard-only': 'Keyboard only',
};

export const ORIENTATION_LABELS: Record<GameOrientation, string> = {
  any: 'Any',
  landscape: 'Landscape',
  portrait: 'Portrait',
};

/** What the server found in an uploaded build, in the engines' own names. */
export const ENGINE_LABELS: Record<BuildEngine, string> = {
  gamemaker: 'GameMaker HTML5',
  godot3: 'Godot 3',
  godot4: 'Godot 4',
  unity: 'Unity WebGL',
  html5: 'HTML5',
};

/** Sizes read the same here and in the games:publish command. */
export { formatBytes } from '@portfolio/types/format';
