/**
 * The game audit log's sentences (issue 28): every audited field of a game reads as a sentence an
 * admin understands ("Published", "Renamed from X to Y", "Access changed from Public to
 * Subscribers"), never as a raw `published: false → true`.
 */
import type { GameAccess } from '@portfolio/types';
import { formatBytes } from '@portfolio/types/format';
import type {
  GameFrameSize,
  GameOrientation,
  GameSection,
  GameTouchSupport,
} from '@portfolio/types/game-host';

/** The fields of a game the audit log follows, as the admin service compares them. */
export interface AuditedGameFields {
  title: string;
  description: string;
  instructions: string;
  section: GameSection;
  access: GameAccess;
  order: number;
  published: boolean;
  frame: GameFrameSize;
  touch: GameTouchSupport;
  orientation: GameOrientation;
}

const SECTION_NAMES: Record<GameSection, string> = {
  multiplayer: 'Multiplayer',
  gamemaker: 'GameMaker',
  godot: 'Godot',
  html5: 'Other HTML5',
};

const ACCESS_NAMES: Record<GameAccess, string> = {
  public: 'Public',
  subscriber: 'Subscribers',
};

const TOUCH_NAMES: Record<GameTouchSupport, string> = {
  playable: 'playable',
  'keyboard-only': 'keyboard only',
};

const ORIENTATION_NAMES: Record<GameOrientation, string> = {
  any: 'Any',
  landscape: 'Landscape',
  portrait: 'Portrait',
};

function frameName(frame: GameFrameSize): string {
  if (frame.mode === 'default') {
    return 'the standard frame';
  }
  const size = `${frame.width} × ${frame.height}`;
  return frame.mode === 'fixed' ? `a fixed ${size} px frame` : `a ${size} aspect ratio`;
}

const quote = (text: string) => `'${text.length > 80 ? `${text.slice(0, 77)}...` : text}'`;

function sentence(
  key: keyof AuditedGameFields,
  before: AuditedGameFields,
  after: AuditedGameFields,
): string {
  switch (key) {
    case 'title':
      return `Renamed from ${quote(before.title)} to ${quote(after.title)}`;
    case 'description':
      return after.description ? 'Description changed' : 'Description removed';
    case 'instructions':
      return after.instructions ? 'Instructions changed' : 'Instructions removed';
    case 'section':
      return `Moved from ${SECTION_NAMES[before.section]} to ${SECTION_NAMES[after.section]}`;
    case 'access':
      return `Access changed from ${ACCESS_NAMES[before.access]} to ${ACCESS_NAMES[after.access]}`;
    case 'order':
      return `Position changed from ${before.order} to ${after.order}`;
    case 'published':
      return after.published ? 'Published' : 'Unpublished';
    case 'frame':
      return `Frame changed from ${frameName(before.frame)} to ${frameName(after.frame)}`;
    case 'touch':
      return `Touch screens changed from ${TOUCH_NAMES[before.touch]} to ${TOUCH_NAMES[after.touch]}`;
    case 'orientation':
      return `Orientation changed from ${ORIENTATION_NAMES[before.orientation]} to ${ORIENTATION_NAMES[after.orientation]}`;
  }
}

/** The changed fields as sentences joined by '; ', or '' when nothing changed. */
export function describeGameChanges(before: AuditedGameFields, after: AuditedGameFields): string {
  return (Object.keys(after) as (keyof AuditedGameFields)[])
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => sentence(key, before, after))
    .join('; ');
}

export function describeGameCreated(title: string, section: GameSection, access: GameAccess) {
  return `Added ${quote(title)} to ${SECTION_NAMES[section]} (${ACCESS_NAMES[access]})`;
}

export function describeGameDeleted(title: string) {
  return `Deleted ${quote(title)}`;
}

export function describeThumbnail(bytes: number) {
  return `Thumbnail replaced (${formatBytes(bytes)})`;
}

export function describeBuildActivated(version: number, was: number | null) {
  return was === null
    ? `Version ${version} made live`
    : `Version ${version} made live (was version ${was})`;
}

export function describeBuildDeleted(version: number, bytes: number) {
  return `Version ${version} deleted (${formatBytes(bytes)})`;
}

export function describeTokenCreated(name: string) {
  return `API token ${quote(name)} created`;
}

export function describeTokenDeleted(name: string, reason?: string) {
  return `API token ${quote(name)} deleted${reason ? ` (${reason})` : ''}`;
}
