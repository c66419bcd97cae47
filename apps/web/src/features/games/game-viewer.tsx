import type { GameEntry } from '@portfolio/types/game-host';
import { useCallback, useEffect, useId, useRef, useState } from 'react';

import { useAuthStore } from '../auth';
import { GamePosts } from '../devlog';
import { sendBeacon } from '../presence';
import { type DeviceClass, useDeviceClass } from './device-class';
import { useGrantRenewal } from './grant-renewal';
import { hasIsolatedParam, isDocumentIsolated, playPath } from './isolation';
import { AchievementsPanel } from './achievements-panel';
import { LeaderboardPanel, type ScoredBoard } from './leaderboard-panel';
import { GameStage } from './game-stage';
import { RoomBar } from './room-bar';
import { startSdkHost } from './sdk-host';
import { useIsTouchScreen } from './touch-screen';
import { useRoomClient } from './use-room-client';
import {
  lockOrientation,
  useCloseOnEscape,
  useFrameFit,
  useIsFrameFocused,
  useIsFullscreen,
  useIsWrongOrientation,
  VIEWER_TOP_MARGIN,
} from './viewer-hooks';

/** A viewer open this long counts as a play even if the game never reports. */
const PLAY_AFTER_SECONDS = 10;

/** Phones and tablets (the spec's device classes below standard). */
function isHandheld(deviceClass: DeviceClass): boolean {
  return deviceClass === 'mobile' || deviceClass === 'mobile-landscape' || deviceClass === 'tablet';
}

/** On a phone the instructions start collapsed: the game takes the screen. */
function startsCollapsed(deviceClass: DeviceClass): boolean {
  return (
    deviceClass === 'mobile' ||
    deviceClass === 'mobile-landscape' ||
    (deviceClass === 'tablet' && window.innerHeight < 600)
  );
}

/**
 * A game that needs isolation is opened in an isolated page load if this page is not one; a
 * load that asked for isolation and still lacks it was refused by the browser.
 */
function useIsolatedLoad(game: GameEntry) {
  const mustReload = game.needsIsolation && !isDocumentIsolated();
  const isIsolationRefused = mustReload && hasIsolatedParam(window.location.search);
  const isReloading = mustReload && !isIsolationRefused;

  useEffect(() => {
    if (isReloading) {
      window.location.assign(playPath(game.id, true));
    }
  }, [isReloading, game.id]);

  return { isIsolationRefused, isReloading };
}

/** Site analytics: a play is the viewer open with the game reporting in, or open 10 s. */
function usePlayBeacon(gameId: string, frameRef: React.RefObject<HTMLIFrameElement | null>) {
  useEffect(() => {
    const start = Date.now();
    let reported = false;
    let sent = false;
    const onMessage = (event: MessageEvent) => {
      reported ||= event.source !== null && event.source === frameRef.current?.contentWindow;
    };
    const end = () => {
      const seconds = (Date.now() - start) / 1000;
      if (!sent && (reported || seconds >= PLAY_AFTER_SECONDS)) {
        sent = true;
        sendBeacon({ type: 'play', gameId, seconds });
      }
    };
    addEventListener('message', onMessage);
    addEventListener('pagehide', end);
    return () => {
      removeEventListener('message', onMessage);
      removeEventListener('pagehide', end);
      end();
    };
  }, [gameId, frameRef]);
}

/**
 * Focus: the game's frame (once its page is in) or, without a frame, the heading. The frame's
 * first load takes focus; a game that reloads itself later does not take it back.
 */
function useFrameFocus(
  gameId: string,
  hasFrame: boolean,
  frameRef: React.RefObject<HTMLIFrameElement | null>,
  headingRef: React.RefObject<HTMLHeadingElement | null>,
) {
  const focusFrame = useCallback(() => {
    const frame = frameRef.current;
    frame?.focus({ preventScroll: true });
    // the game's own window: engines such as GameMaker's check that it has focus
    frame?.contentWindow?.focus();
  }, [frameRef]);
  useEffect(() => {
    if (hasFrame) {
      focusFrame();
    } else {
      headingRef.current?.focus({ preventScroll: true });
    }
  }, [gameId, hasFrame, focusFrame, headingRef]);
  const hasLoadedRef = useRef(false);
  const handleFrameLoad = () => {
    // the first load only: a game that reloads itself later does not take focus back
    if (!hasLoadedRef.current) {
      hasLoadedRef.current = true;
      focusFrame();
    }
  };

  return { focusFrame, handleFrameLoad };
}

/** Hosts the game SDK for the open game; what the game reported reaches the panels. */
function useGameSdk(
  gameId: string,
  playUrl: string | null,
  frameRef: React.RefObject<HTMLIFrameElement | null>,
) {
  const rooms = useRoomClient(gameId, playUrl, frameRef);
  /** The last score the game posted: the leaderboards are read again and turn to its board. */
  const [scored, setScored] = useState<ScoredBoard | null>(null);
  /** Grows when the game unlocks an achievement: its catalogue is read again. */
  const [unlocks, setUnlocks] = useState(0);
  useEffect(() => {
    if (!playUrl) {
      return undefined;
    }
    return startSdkHost({
      gameId,
      frameOrigin: new URL(playUrl).origin,
      getFrameWindow: () => frameRef.current?.contentWindow,
      isSignedIn: () => useAuthStore.getState().user !== null,
      onUnlock: () => setUnlocks((count) => count + 1),
      onScore: (board) => setScored((last) => ({ board, version: (last?.version ?? 0) + 1 })),
      onRooms: rooms ? rooms.handleSdk : undefined,
    });
  }, [gameId, playUrl, frameRef, rooms]);

  return { scored, unlocks, rooms };
}

/**
 * The game viewer (spec section 2): Close, the game's frame on the games origin, and its
 * instructions. The frame is the spec's (100% wide, 800 px high) where that fits the window, else
 * fitted to it; a game of a fixed size or aspect ratio is scaled so all of it shows.
 * Opening the game or Fullscreen gives the frame focus, so the first key and click reach the game;
 * Escape closes the viewer. On a touch screen a keyboard-only game says so, and fullscreen is
 * offered in the game's orientation. It hosts the game SDK for the open game. A game that needs
 * isolation is opened in an isolated page load if this page is not one.
 */
export function GameViewer({ game, onClose }: { game: GameEntry; onClose: () => void }) {
  const deviceClass = useDeviceClass();
  const isTouchScreen = useIsTouchScreen();
  const [isShowingInstructions, setShowingInstructions] = useState(
    () => !startsCollapsed(deviceClass),
  );
  const frameRef = useRef<HTMLIFrameElement>(null);
  const viewerRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const instructionsId = useId();
  const { isIsolationRefused, isReloading } = useIsolatedLoad(game);
  const isFullscreen = useIsFullscreen(stageRef);
  const isKeyboardOnlyHere = isTouchScreen && game.touch === 'keyboard-only';
  const isWrongOrientation = useIsWrongOrientation(game.orientation);
  const fit = useFrameFit({
    size: game.frame,
    viewerRef,
    contentRef,
    isFullscreen,
    isUpright: isHandheld(deviceClass) && game.orientation !== 'portrait',
    // what moves the frame down or changes its room
    layoutKey: `${isShowingInstructions}:${isKeyboardOnlyHere}:${deviceClass}`,
  });

  usePlayBeacon(game.id, frameRef);

  const { playUrl } = game;
  // a subscriber game's grant, renewed in the running frame's address (never its src)
  useGrantRenewal(game.id, playUrl, frameRef);
  const hasFrame = Boolean(playUrl) && !isReloading;

  const { focusFrame, handleFrameLoad } = useFrameFocus(game.id, hasFrame, frameRef, headingRef);

  useCloseOnEscape(onClose);
  const isFrameFocused = useIsFrameFocused(frameRef);

  const { scored, unlocks, rooms } = useGameSdk(game.id, playUrl, frameRef);

  const enterFullscreen = () => {
    const stage = stageRef.current;
    if (!stage) {
      return;
    }
    stage.requestFullscreen({ navigationUI: 'hide' }).then(
      () => {
        lockOrientation(game.orientation);
        focusFrame();
      },
      (error: unknown) => {
        console.warn('Fullscreen was refused', error);
      },
    );
  };

  const showsOrientationOffer =
    hasFrame && isTouchScreen && !isFullscreen && !isKeyboardOnlyHere && isWrongOrientation;

  return (
    <section
      ref={viewerRef}
      className={`game-viewer game-viewer--${deviceClass}`}
      style={{ scrollMarginTop: `${VIEWER_TOP_MARGIN}px` }}
      aria-labelledby="game-viewer-title"
    >
      <div className="game-viewer__bar">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
        <h1 id="game-viewer-title" ref={headingRef} tabIndex={-1} className="game-viewer__title">
          {game.title}
        </h1>
        <div className="game-viewer__actions">
          <button
            type="button"
            className="button button--ghost"
            aria-expanded={isShowingInstructions}
            aria-controls={instructionsId}
            onClick={() => setShowingInstructions((shown) => !shown)}
          >
            {isShowingInstructions ? 'Hide Instructions' : 'Show Instructions'}
          </button>
          {hasFrame && (
            <button type="button" className="button button--ghost" onClick={enterFullscreen}>
              Fullscreen
            </button>
          )}
        </div>
      </div>
      <div
        id={instructionsId}
        className="game-viewer__instructions"
        hidden={!isShowingInstructions}
      >
        <h2>Instructions</h2>
        <p>{game.instructions}</p>
      </div>
      {isKeyboardOnlyHere && (
        <p className="game-viewer__notice" role="note">
          {KEYBOARD_ONLY_NOTICE}
        </p>
      )}
      {isIsolationRefused && (
        <p className="game-viewer__notice" role="status">
          This game needs a browser that runs it cross-origin isolated (a recent Chrome, Edge or
          Firefox): it may not start here.
        </p>
      )}
      <div
        ref={contentRef}
        className={`game-viewer__content game-viewer__content--${deviceClass}`}
        data-device-class={deviceClass}
      >
        {isReloading ? (
          <p className="game-viewer__placeholder">Loading...</p>
        ) : playUrl ? (
          <GameStage
            game={game}
            playUrl={playUrl}
            fit={fit}
            stageRef={stageRef}
            frameRef={frameRef}
            isFrameFocused={isFrameFocused}
            focusFrame={focusFrame}
            onFrameLoad={handleFrameLoad}
          />
        ) : (
          <p className="game-viewer__placeholder">This game is not available right now.</p>
        )}
      </div>
      {showsOrientationOffer && (
        <p className="game-viewer__offer">
          <button type="button" className="button button--primary" onClick={enterFullscreen}>
            {`Play fullscreen in ${game.orientation}`}
          </button>
        </p>
      )}
      {rooms && <RoomBar client={rooms} gameTitle={game.title} />}
      <AchievementsPanel gameId={game.id} version={unlocks} />
      <LeaderboardPanel gameId={game.id} scored={scored} />
      <GamePosts gameId={game.id} />
    </section>
  );
}

/** What a keyboard-only game says on a touch screen (its card and the viewer). */
export const KEYBOARD_ONLY_NOTICE =
  'This game needs a keyboard: it cannot be played on a touch screen.';
