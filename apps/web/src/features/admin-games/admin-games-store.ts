import type { AdminGame } from '@portfolio/types/game-host';
import { create } from 'zustand';

import { serverMessageOr } from '../../lib/server-message';
import { listAdminGames } from './admin-games-api';

export const GAMES_LOAD_ERROR = 'Failed to fetch games';

interface AdminGamesState {
  /** null until the first answer. */
  games: AdminGame[] | null;
  error: string | null;
  /** Fetches the list again (after every change, so both pages show what the server holds). */
  load: () => Promise<void>;
  /** Puts a game the server answered with in place of the one held (a build's upload). */
  replaceGame: (game: AdminGame) => void;
}

let loadCount = 0;

/** The admin's games, shared by the list and the game page (moving between them shows at once). */
export const useAdminGamesStore = create<AdminGamesState>()((set) => ({
  games: null,
  error: null,
  load: async () => {
    // only the newest answer counts when loads overlap
    const id = ++loadCount;
    try {
      const { games } = await listAdminGames();
      if (id === loadCount) {
        set({ games, error: null });
      }
    } catch (error) {
      if (id === loadCount) {
        console.warn(GAMES_LOAD_ERROR, error);
        set({ error: serverMessageOr(error, GAMES_LOAD_ERROR) });
      }
    }
  },
  replaceGame: (game) =>
    set((state) => ({
      games: state.games?.map((held) => (held.id === game.id ? game : held)) ?? [game],
    })),
}));
