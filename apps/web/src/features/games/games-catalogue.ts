import { type GameEntry, GamesResponse } from '@portfolio/types/game-host';
import { useState } from 'react';

import { http } from '../../lib/http';
import { useResource, warnOnFailure } from '../../ui/use-resource';

/** `GET /api/games`: the published games in the admin's order, with their play URLs. */
export async function listGames(signal?: AbortSignal): Promise<GameEntry[]> {
  return (await http.get('/api/games', GamesResponse, signal)).games;
}

export type CatalogueState =
  { kind: 'loading' } | { kind: 'loaded'; games: GameEntry[] } | { kind: 'failed' };

const loadGames = (signal: AbortSignal) =>
  warnOnFailure(listGames(signal), 'Could not load the games', signal);

/**
 * The catalogue for the current viewer (`viewer`: the signed-in user's id and role, or '' for a
 * guest). The list shows what was read for this viewer; opening a game (`opening`: its id) reads
 * it again, so a subscriber game's frame always starts with a fresh signed grant.
 */
export function useGamesCatalogue(viewer: string, opening: string | null): CatalogueState {
  // the game the catalogue was last read for: closing it keeps that read (the list is current)
  const [readFor, setReadFor] = useState(opening ?? '');
  if (opening !== null && opening !== readFor) {
    setReadFor(opening);
  }
  const want = opening ?? readFor;
  const { data: games, error } = useResource(loadGames, 'Could not load the games', {
    reloadKey: `${viewer}\n${want}`,
  });
  if (error) {
    return { kind: 'failed' };
  }
  return games ? { kind: 'loaded', games } : { kind: 'loading' };
}
