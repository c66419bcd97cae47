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

/** How the viewer sizes a game's frame (issue 25). */
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

const UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;

/** A size in decimal units ('1.5 MB'), as file managers and upload limits state them. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) {
    return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}
