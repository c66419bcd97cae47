import { GAME_GRANT_PATTERN, GAME_SDK_PROTOCOL, type GameSdkGrantMessage } from '@portfolio/types';
import { type RefObject, useEffect } from 'react';

import { listGames } from './games-catalogue';

/** How often the open viewer fetches a fresh grant (a grant opens pages for two minutes). */
export const GRANT_RENEW_INTERVAL_MS = 60_000;

/** The grant in a subscriber game's play URL (`<games origin>/g/<grant>/…`), if it has one. */
export function grantOf(playUrl: string | null | undefined): string | undefined {
  if (!playUrl) {
    return undefined;
  }
  let pathname: string;
  try {
    pathname = new URL(playUrl).pathname;
  } catch {
    return undefined;
  }
  const grant = /^\/g\/([^/]+)\//.exec(pathname)?.[1];
  return grant && GAME_GRANT_PATTERN.test(grant) ? grant : undefined;
}

export interface GrantRenewalOptions {
  gameId: string;
  /** The play URL the frame was opened with. */
  playUrl: string;
  getFrameWindow: () => Window | null | undefined;
  /** Reads the catalogue again (GET /api/games); the renewed entry's playUrl carries the grant. */
  readPlayUrl?: (gameId: string) => Promise<string | null | undefined>;
  intervalMs?: number;
}

const readPlayUrlFromCatalogue = async (gameId: string) =>
  (await listGames()).find((game) => game.id === gameId)?.playUrl;

/**
 * Keeps a subscriber game's grant fresh while the viewer is open: every minute, and
 * when the tab is shown again, the catalogue is read again and the new grant is posted to the
 * frame, whose SDK puts it into the frame's address without reloading the game. The frame's
 * `src` never changes (that would restart the game). When the catalogue no longer grants the
 * game (the subscription ended), renewal stops: the running game keeps what it loaded, and its
 * old grant runs out. Does nothing for a play URL without a grant. Returns a stop function.
 */
export function startGrantRenewal(options: GrantRenewalOptions): () => void {
  if (!grantOf(options.playUrl)) {
    return () => undefined;
  }
  const frameOrigin = new URL(options.playUrl).origin;
  const readPlayUrl = options.readPlayUrl ?? readPlayUrlFromCatalogue;
  let isStopped = false;
  let isRenewing = false;

  const stop = () => {
    isStopped = true;
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
  const renew = async () => {
    if (isStopped || isRenewing) {
      return;
    }
    isRenewing = true;
    try {
      const grant = grantOf(await readPlayUrl(options.gameId));
      if (isStopped) {
        return;
      }
      if (!grant) {
        // no longer granted (or no longer published): the open game keeps what it has
        stop();
        return;
      }
      const message: GameSdkGrantMessage = { protocol: GAME_SDK_PROTOCOL, kind: 'grant', grant };
      options.getFrameWindow()?.postMessage(message, frameOrigin);
    } catch (error) {
      // offline for a moment: the next tick tries again
      console.warn('Could not renew the game grant', error);
    } finally {
      isRenewing = false;
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') {
      void renew();
    }
  };
  const timer = setInterval(() => void renew(), options.intervalMs ?? GRANT_RENEW_INTERVAL_MS);
  document.addEventListener('visibilitychange', onVisible);
  return stop;
}

/** startGrantRenewal for the viewer's frame, for as long as the viewer shows this play URL. */
export function useGrantRenewal(
  gameId: string,
  playUrl: string | null,
  frameRef: RefObject<HTMLIFrameElement | null>,
): void {
  useEffect(() => {
    if (!playUrl) {
      return undefined;
    }
    return startGrantRenewal({
      gameId,
      playUrl,
      getFrameWindow: () => frameRef.current?.contentWindow,
    });
  }, [gameId, playUrl, frameRef]);
}
