import {
  GAME_SDK_PROTOCOL,
  type GameSdkAnswerMessage,
  GameSdkRequestMessage,
} from '@portfolio/types';

import { isHttpError } from '../../lib/http';
import {
  endSessionOnExit,
  getLeaderboard,
  getPlayTicket,
  loadGame,
  recordSession,
  saveGame,
  submitScore,
  unlockAchievement,
} from './games-api';

export interface SdkHostOptions {
  /** The game the viewer shows: calls are recorded for it, whatever the frame claims. */
  gameId: string;
  /**
   * The origin the game's frame is served from (the games origin, `new URL(playUrl).origin`);
   * default this page's. Messages from any other origin are ignored, and answers are addressed
   * to this one only.
   */
  frameOrigin?: string;
  /** The game's frame window; messages from any other window are ignored. */
  getFrameWindow: () => Window | null | undefined;
  /** Whether a player is signed in now (guests play without recording). */
  isSignedIn: () => boolean;
  /** A score the game posted was recorded (the viewer shows the board again). */
  onScore?: (board: string) => void;
  /** The game unlocked an achievement (the viewer reads its catalogue again). */
  onUnlock?: (key: string) => void;
}

/** Requests a guest's game may make too: reading boards is public. */
const GUEST_REQUESTS = new Set<GameSdkRequestMessage['type']>(['leaderboard']);

/**
 * The hosting page's side of the game SDK (sdk.js): answers the frame's requests by calling the
 * API for the signed-in player. Only messages from the game's own frame on the games origin are
 * read; answers go only to that frame on that origin. A guest's requests are answered with
 * nothing, so the game plays on without recording. A multiplayer game asks for a play ticket,
 * with which it joins the game's server on this origin without a cookie. Returns a function that
 * stops listening and ends a play session that is still open.
 */
export function startSdkHost(options: SdkHostOptions): () => void {
  const { gameId } = options;
  const origin = options.frameOrigin ?? window.location.origin;
  let isSessionOpen = false;

  const answer = (target: Window, id: number, ok: boolean, result?: unknown) => {
    const message: GameSdkAnswerMessage = { protocol: GAME_SDK_PROTOCOL, kind: 'answer', id, ok };
    if (result !== undefined) {
      message.result = result;
    }
    target.postMessage(message, origin);
  };

  const perform = async (request: GameSdkRequestMessage): Promise<unknown> => {
    switch (request.type) {
      case 'session':
        isSessionOpen = request.payload.action !== 'end';
        await recordSession(gameId, request.payload.action);
        return undefined;
      case 'save':
        await saveGame(gameId, request.payload.data);
        return undefined;
      case 'load':
        return loadGame(gameId);
      case 'slots':
        return [];
      case 'unlock':
        await unlockAchievement(gameId, request.payload.name);
        options.onUnlock?.(request.payload.name);
        return undefined;
      case 'ticket':
        return getPlayTicket(gameId);
      case 'score': {
        const result = await submitScore(gameId, request.payload);
        options.onScore?.(request.payload.board);
        return result;
      }
      case 'leaderboard': {
        const { board, ...query } = request.payload;
        return getLeaderboard(gameId, board, query);
      }
    }
  };

  const onMessage = (event: MessageEvent) => {
    const frame = options.getFrameWindow();
    if (event.origin !== origin || !frame || event.source !== frame) {
      return;
    }
    const parsed = GameSdkRequestMessage.safeParse(event.data);
    if (!parsed.success) {
      return;
    }
    const request = parsed.data;
    if (!options.isSignedIn() && !GUEST_REQUESTS.has(request.type)) {
      answer(frame, request.id, false);
      return;
    }
    perform(request).then(
      (result) => answer(frame, request.id, true, result),
      (error: unknown) => {
        console.warn(`Game SDK ${request.type} failed`, error);
        // the game may tell its player why (a score out of the board's range, too many)
        answer(
          frame,
          request.id,
          false,
          isHttpError(error) ? { error: { code: error.code, message: error.message } } : undefined,
        );
      },
    );
  };

  const endOpenSession = () => {
    if (isSessionOpen && options.isSignedIn()) {
      isSessionOpen = false;
      endSessionOnExit(gameId);
    }
  };
  // the whole page going away (tab closed, another site): the frame's own goodbye may not arrive
  window.addEventListener('pagehide', endOpenSession);
  window.addEventListener('message', onMessage);
  return () => {
    window.removeEventListener('message', onMessage);
    window.removeEventListener('pagehide', endOpenSession);
    endOpenSession();
  };
}
