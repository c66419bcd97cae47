import {
  GAME_SDK_PROTOCOL,
  type GameSdkAnswerMessage,
  GameSdkRequestMessage,
} from '@portfolio/types';

import { HttpError, isHttpError } from '../../lib/http';
import {
  endSessionOnExit,
  getLeaderboard,
  getPlayTicket,
  listLeaderboards,
  listSaveSlots,
  loadGame,
  recordSession,
  saveGame,
  submitScore,
  unlockAchievement,
} from './games-api';
import {
  guestSlots,
  loadAsGuest,
  saveAsGuest,
  scoreAsGuest,
  unlockAsGuest,
} from './guest-progress';

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
  /**
   * A `GameSDK.rooms` request (guests too: the room service decides): the viewer's room client
   * answers it (room-client.ts); without one, rooms are refused.
   */
  onRooms?: (payload: unknown) => Promise<unknown>;
}

/**
 * A guest's requests: boards are read from the server (public); saves, achievements and best
 * scores stay in this browser (guest-progress.ts) until it signs in. Nothing is written to the
 * server for a guest.
 */
async function performAsGuest(gameId: string, request: GameSdkRequestMessage): Promise<unknown> {
  switch (request.type) {
    case 'session':
      return undefined;
    case 'save':
      saveAsGuest(gameId, request.payload.data, request.payload.slot);
      return undefined;
    case 'load':
      return loadAsGuest(gameId, request.payload.slot);
    case 'slots':
      return guestSlots(gameId);
    case 'unlock':
      unlockAsGuest(gameId, request.payload.name);
      return undefined;
    case 'score': {
      const { board, value } = request.payload;
      const found = (await listLeaderboards(gameId)).find((entry) => entry.board === board);
      if (!found) {
        throw new HttpError({
          status: 404,
          code: 'NOT_FOUND',
          message: `No leaderboard '${board}' in this game`,
        });
      }
      if ((found.min !== null && value < found.min) || (found.max !== null && value > found.max)) {
        throw new HttpError({
          status: 422,
          code: 'SCORE_OUT_OF_RANGE',
          message: `A score on ${found.name} must be within its range`,
        });
      }
      const isBest = scoreAsGuest(gameId, board, value, found.order);
      return { board, value, isBest, guest: true };
    }
    case 'leaderboard': {
      const { board, ...query } = request.payload;
      return getLeaderboard(gameId, board, query);
    }
    case 'ticket':
      throw new HttpError({ status: 401, code: 'UNAUTHORIZED', message: 'Sign in to play' });
    case 'rooms':
      // answered by the room client before this (roomsOff when there is none)
      throw roomsOff();
  }
}

function roomsOff(): HttpError {
  return new HttpError({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: 'Rooms are not available here.',
  });
}

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
        await saveGame(gameId, request.payload.data, request.payload.slot);
        return undefined;
      case 'load':
        return loadGame(gameId, request.payload.slot);
      case 'slots':
        return listSaveSlots(gameId);
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
      case 'rooms':
        throw roomsOff();
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
    const pending =
      request.type === 'rooms' && options.onRooms
        ? options.onRooms(request.payload)
        : options.isSignedIn()
          ? perform(request)
          : performAsGuest(gameId, request);
    pending.then(
      (result) => answer(frame, request.id, true, result),
      (error: unknown) => {
        if (request.type !== 'rooms') {
          console.warn(`Game SDK ${request.type} failed`, error);
        }
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
