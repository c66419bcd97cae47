import { createTruncatedMac } from '../../lib/truncated-mac.js';

/*
 * Access grants for subscriber-only games on the games origin. The games origin has no
 * cookie and no session: the site signs a short-lived grant for one game and puts it in the
 * play URL's first path segment, so every relative URL the game's files use keeps it:
 *
 *   <games origin>/g/<grant>/<gameId>/<version>/<file>      subscriber games
 *   <games origin>/<gameId>/<version>/<file>                public games
 *
 * A grant is `<expires, base36 seconds>.<MAC of "gameId:expires">`. A play URL is a bearer URL,
 * so it is good for a page load only: a page (an .html file) is served while the
 * grant is unexpired, GRANT_PAGE_SECONDS after it was signed, so a copied URL, or one kept
 * after the subscriber was demoted, opens nothing a few minutes later. The game's other files
 * are served GRANT_FILES_SECONDS longer, for what a running game loads later (levels, music).
 * While the viewer is open it fetches a fresh grant every minute and the game SDK swaps it
 * into the frame's address (history.replaceState, no reload), so an SDK game's later requests
 * and its own reloads carry a fresh one; a demoted subscriber gets none.
 */

/** How long after signing a grant opens a page (the viewer frames it at once). */
export const GRANT_PAGE_SECONDS = 2 * 60;
/** How much longer a grant serves a game's other files: what it loads while it runs. */
export const GRANT_FILES_SECONDS = 30 * 60;

export interface GameGrants {
  /** A grant for `gameId` that opens pages for GRANT_PAGE_SECONDS from `now`. */
  sign(gameId: string, now?: number): string;
  /**
   * Whether `grant` is a valid grant for `gameId` that still serves this kind of file: a page
   * (`isPage`, an .html file) while unexpired, any other file GRANT_FILES_SECONDS longer.
   */
  verify(grant: string, gameId: string, options?: { isPage?: boolean; now?: number }): boolean;
}

export function createGameGrants(secret: string): GameGrants {
  const mac = createTruncatedMac(secret, 'game-grant', 16);
  return {
    sign(gameId, now = Date.now()) {
      const expires = (Math.floor(now / 1000) + GRANT_PAGE_SECONDS).toString(36);
      return `${expires}.${mac.sign(`${gameId}:${expires}`)}`;
    },
    verify(grant, gameId, { isPage = true, now = Date.now() } = {}) {
      const match = /^([0-9a-z]{1,11})\.([\w-]{1,64})$/.exec(grant);
      if (!match) {
        return false;
      }
      const [, expires, signature] = match as unknown as [string, string, string];
      const until = (parseInt(expires, 36) + (isPage ? 0 : GRANT_FILES_SECONDS)) * 1000;
      return until > now && mac.matches(`${gameId}:${expires}`, signature);
    },
  };
}
