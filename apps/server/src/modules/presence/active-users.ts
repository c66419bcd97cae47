import type { ActiveUsersResponse } from '@portfolio/types';

import type { PresenceEntry } from './presence-store.js';

/** The spec's active-users shape from store entries. */
export function toActiveUsersResponse(entries: readonly PresenceEntry[]): ActiveUsersResponse {
  const authenticated = entries
    .filter((entry) => entry.kind === 'user')
    .sort((a, b) => b.lastSeen - a.lastSeen)
    .map((entry) => ({
      username: entry.username ?? '',
      role: entry.role ?? 'user',
      current_page: entry.currentPage,
      last_seen: new Date(entry.lastSeen).toISOString(),
    }));
  const currentPages: Record<string, number> = {};
  let guests = 0;
  for (const entry of entries) {
    if (entry.kind === 'anonymous') {
      guests++;
      currentPages[entry.currentPage] = (currentPages[entry.currentPage] ?? 0) + 1;
    }
  }
  return {
    authenticated,
    anonymous: { count: guests, currentPages },
    totalActive: authenticated.length + guests,
  };
}
