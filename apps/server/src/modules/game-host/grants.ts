import { createTruncatedMac } from '../../lib/truncated-mac.js';

/*
 * Access grants for subscriber-only games on the games origin (issue 16). The games origin has no
 * cookie and no session: the site signs a short-lived grant for one game and puts it in the
 * play URL's first path segment, so every relative URL the game's files use keeps it:
 *
 *   <games origin>/g/<grant>/<gameId>/<version>/<file>      subscriber games
 *   <games origin>/<gameId>/<version>/<file>                public games
 *
 * A grant is `<expires, base36 seconds>.<MAC of "gameId:expires">`. It outlives a page load by
 * far (a play session of several hours), and the viewer fetches a new one on every open.
 */

export const GRANT_TTL_SECONDS = 3 * 60 * 60;

export interface GameGrants {
  /** A grant for `gameId` valid for GRANT_TTL_SECONDS from `now`. */
  sign(gameId: string, now?: number): string;
  /** Whether `grant` is a valid, unexpired grant for `gameId`. */
  verify(grant: string, gameId: string, now?: number): boolean;
}

export function createGameGrants(secret: string): GameGrants {
  const mac = createTruncatedMac(secret, 'game-grant', 16);
  return {
    sign(gameId, now = Date.now()) {
      const expires = (Math.floor(now / 1000) + GRANT_TTL_SECONDS).toString(36);
      return `${expires}.${mac.sign(`${gameId}:${expires}`)}`;
    },
    verify(grant, gameId, now = Date.now()) {
      const match = /^([0-9a-z]{1,11})\.([\w-]{1,64})$/.exec(grant);
      if (!match) {
        return false;
      }
      const [, expires, signature] = match as unknown as [string, string, string];
      return parseInt(expires, 36) * 1000 > now && mac.matches(`${gameId}:${expires}`, signature);
    },
  };
}
