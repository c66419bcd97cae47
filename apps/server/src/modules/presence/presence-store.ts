import { z } from 'zod';

import { Role } from '@portfolio/types';

/** The web app sends a heartbeat at load and then every 30 s (spec section 9). */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * A visitor counts as active while its last heartbeat is at most this old: 2.5 heartbeat
 * intervals, so one lost or late heartbeat does not make a visitor flicker out of the list.
 */
export const ACTIVE_WINDOW_MS = 75_000;

/**
 * Time on site added by one heartbeat is capped at two intervals, so a laptop that slept with the
 * tab open (timers paused) adds at most a minute, not hours.
 */
export const MAX_HEARTBEAT_GAP_MS = 60_000;

/** One visitor as presence sees it: a signed-in user (all tabs together) or one guest. */
export interface PresenceEntry {
  /** `user:<userId>` or `anon:<hmac>`; never a raw IP address or raw visitor id. */
  key: string;
  kind: 'user' | 'anonymous';
  userId?: string;
  username?: string;
  role?: Role;
  currentPage: string;
  /** The game open in this visitor's viewer (site analytics' "playing now"). */
  game?: string;
  /** The page load that sent the latest heartbeat (see `PageLoadId`). */
  tab?: string;
  /** Epoch milliseconds of the latest heartbeat. */
  lastSeen: number;
}

/**
 * Who is on the site now. One implementation per process (memory) and one shared by every
 * process (Redis); both pass `presence-store.contract.ts`.
 */
export interface PresenceStore {
  /**
   * Records a heartbeat (replacing the entry) and returns the previous `lastSeen` of the same key
   * when that entry was still active at `entry.lastSeen`, else null. Atomic per key.
   */
  touch(entry: PresenceEntry): Promise<number | null>;
  /** Entries active at `now` (lastSeen > now − window); forgets older ones. */
  listActive(now: number): Promise<PresenceEntry[]>;
  /** How many entries are active at `now`; cheaper than listing. */
  countActive(now: number): Promise<number>;
  /**
   * Forgets an entry. With `tab` (a page load going away), only when that page load sent its
   * latest heartbeat (or none said which): a newer page of the same visitor keeps it.
   */
  remove(key: string, tab?: string): Promise<void>;
}

export const userPresenceKey = (userId: string) => `user:${userId}`;

const StoredEntry = z.object({
  key: z.string(),
  kind: z.enum(['user', 'anonymous']),
  userId: z.string().optional(),
  username: z.string().optional(),
  role: Role.optional(),
  currentPage: z.string(),
  game: z.string().optional(),
  tab: z.string().optional(),
  lastSeen: z.number(),
});

/** Parses a stored entry; anything malformed (another version, corruption) is skipped. */
export function parseEntry(text: string): PresenceEntry | undefined {
  try {
    const parsed = StoredEntry.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
