/**
 * The game audit log's sentences: every audited field of a game reads as a sentence an
 * admin understands ("Published", "Renamed from X to Y", "Access changed from Public to
 * Subscribers"), never as a raw `published: false → true`. The server writes them; the admin page
 * rewrites entries written before in the old raw form (readableAuditDetail). No zod.
 * Import '@portfolio/types/game-history'.
 */
import { formatBytes } from './format.js';
import type { GameFrameSize, GameOrientation, GameSection, GameTouchSupport } from './game-host.js';
import type { GameAccess } from './games.js';

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

const AUDITED_KEYS: ReadonlySet<string> = new Set<keyof AuditedGameFields>([
  'title',
  'description',
  'instructions',
  'section',
  'access',
  'order',
  'published',
  'frame',
  'touch',
  'orientation',
]);

/**
 * An entry's detail as a sentence: entries written before the log held sentences had the raw change
 * (`published: false → true; access: "public" → "subscriber"`), rewritten here with the same
 * sentences the server writes now. Anything else is returned as it is.
 */
export function readableAuditDetail(detail: string): string {
  const parts = detail.split('; ');
  const sentences: string[] = [];
  for (const part of parts) {
    const match = /^(\w+): (.+?) → (.+)$/s.exec(part);
    if (!match || !AUDITED_KEYS.has(match[1] ?? '')) {
      return detail;
    }
    const key = match[1] as keyof AuditedGameFields;
    let was: unknown;
    let is: unknown;
    try {
      was = JSON.parse(match[2] ?? '');
      is = JSON.parse(match[3] ?? '');
    } catch {
      return detail;
    }
    // only the one field differs: the sentence reads nothing else
    const before = { [key]: was } as unknown as AuditedGameFields;
    const after = { [key]: is } as unknown as AuditedGameFields;
    sentences.push(sentence(key, before, after));
  }
  return sentences.join('; ');
}
