/*
 * A guest's progress in a game, kept in this browser on the site's origin (localStorage, one key
 * per game) and never sent while they are a guest: saves by slot, achievements and best scores.
 * When the browser signs in, the offer (guest-progress-offer.tsx) carries it into the account.
 */

const PREFIX = 'portfolio-guest-progress:';

export interface GuestSave {
  data: unknown;
  updatedAt: string;
}

export interface GuestScore {
  value: number;
  achievedAt: string;
}

export interface GuestProgress {
  saves: Record<string, GuestSave>;
  achievements: Record<string, string>;
  scores: Record<string, GuestScore>;
}

const empty = (): GuestProgress => ({ saves: {}, achievements: {}, scores: {} });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A game's guest progress (empty when there is none or it cannot be read). */
export function readGuestProgress(gameId: string): GuestProgress {
  const raw = storage()?.getItem(PREFIX + gameId);
  if (!raw) {
    return empty();
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed)) {
      return empty();
    }
    return {
      saves: isRecord(parsed.saves) ? (parsed.saves as Record<string, GuestSave>) : {},
      achievements: isRecord(parsed.achievements)
        ? (parsed.achievements as Record<string, string>)
        : {},
      scores: isRecord(parsed.scores) ? (parsed.scores as Record<string, GuestScore>) : {},
    };
  } catch {
    return empty();
  }
}

function write(gameId: string, progress: GuestProgress): void {
  storage()?.setItem(PREFIX + gameId, JSON.stringify(progress));
}

export function hasGuestProgress(progress: GuestProgress): boolean {
  return (
    Object.keys(progress.saves).length > 0 ||
    Object.keys(progress.achievements).length > 0 ||
    Object.keys(progress.scores).length > 0
  );
}

/** The games this browser holds guest progress of. */
export function gamesWithGuestProgress(): string[] {
  const store = storage();
  if (!store) {
    return [];
  }
  const ids: string[] = [];
  for (let index = 0; index < store.length; index += 1) {
    const key = store.key(index);
    if (key?.startsWith(PREFIX) && hasGuestProgress(readGuestProgress(key.slice(PREFIX.length)))) {
      ids.push(key.slice(PREFIX.length));
    }
  }
  return ids;
}

export function saveAsGuest(gameId: string, data: unknown, slot = 0, at = new Date()): void {
  const progress = readGuestProgress(gameId);
  progress.saves[String(slot)] = { data, updatedAt: at.toISOString() };
  write(gameId, progress);
}

export function loadAsGuest(gameId: string, slot = 0): unknown {
  return readGuestProgress(gameId).saves[String(slot)]?.data ?? null;
}

export function guestSlots(gameId: string): Array<{ slot: number; updatedAt: string }> {
  return Object.entries(readGuestProgress(gameId).saves)
    .map(([slot, save]) => ({ slot: Number(slot), updatedAt: save.updatedAt }))
    .sort((a, b) => a.slot - b.slot);
}

export function unlockAsGuest(gameId: string, key: string, at = new Date()): void {
  const progress = readGuestProgress(gameId);
  if (!progress.achievements[key]) {
    progress.achievements[key] = at.toISOString();
    write(gameId, progress);
  }
}

/** Keeps a guest's score if it beats their best on the board; answers whether it did. */
export function scoreAsGuest(
  gameId: string,
  board: string,
  value: number,
  order: 'desc' | 'asc',
  at = new Date(),
): boolean {
  const progress = readGuestProgress(gameId);
  const best = progress.scores[board];
  const isBest = !best || (order === 'desc' ? value > best.value : value < best.value);
  if (isBest) {
    progress.scores[board] = { value, achievedAt: at.toISOString() };
    write(gameId, progress);
  }
  return isBest;
}

/** Forgets a game's guest progress (carried into the account, or discarded). */
export function clearGuestProgress(gameId: string): void {
  storage()?.removeItem(PREFIX + gameId);
}
