import { type GameEntry, GamesResponse } from '@portfolio/types/game-host';
import { useEffect, useState } from 'react';

import { http } from '../../lib/http';

/** `GET /api/games`: the published games in the admin's order, with their play URLs. */
export async function listGames(signal?: AbortSignal): Promise<GameEntry[]> {
  return (await http.get('/api/games', GamesResponse, signal)).games;
}

export type CatalogueState =
  { kind: 'loading' } | { kind: 'loaded'; games: GameEntry[] } | { kind: 'failed' };

interface Read {
  /** Who the catalogue was read for (play URLs and grants depend on the viewer)... */
  viewer: string;
  /** ...and for which open game ('' for the list). */
  opening: string;
  games: GameEntry[] | undefined;
}

/**
 * The catalogue for the current viewer (`viewer`: the signed-in user's id and role, or '' for a
 * guest). The list shows what was read for this viewer; opening a game (`opening`: its id) reads
 * it again, so a subscriber game's frame always starts with a fresh signed grant.
 */
export function useGamesCatalogue(viewer: string, opening: string | null): CatalogueState {
  const [read, setRead] = useState<Read | undefined>();
  const want = opening ?? '';
  const isCurrent =
    read !== undefined && read.viewer === viewer && (opening === null || read.opening === want);

  useEffect(() => {
    if (isCurrent) {
      return undefined;
    }
    const controller = new AbortController();
    listGames(controller.signal).then(
      (games) => setRead({ viewer, opening: want, games }),
      (error: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        console.warn('Could not load the games', error);
        setRead({ viewer, opening: want, games: undefined });
      },
    );
    return () => controller.abort();
  }, [isCurrent, viewer, want]);

  if (!isCurrent) {
    return { kind: 'loading' };
  }
  return read.games ? { kind: 'loaded', games: read.games } : { kind: 'failed' };
}
