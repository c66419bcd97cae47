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
import { startSdkHost } from './sdk-host';
import { useIsTouchScreen } from './touch-screen';
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

/**
 * What the frame may use: fullscreen (allowed here only: an `allowfullscreen`
 * attribute beside it made Chromium warn on every open), sound without a tap, gamepads, motion
 * sensors and the clipboard; cross-origin-isolated only for a threaded build (SharedArrayBuffer),
 * which has it only when this page is isolated too.
 */
export function gameFrameAllow(needsIsolation: boolean): string {
  const features = [
    'fullscreen',
    'autoplay',
    'gamepad',
    'accelerometer',
    'gyroscope',
    'clipboard-write',
  ];
  if (needsIsolation) {
    features.push('cross-origin-isolated');
  }
  return features.join('; ');
}

/**
 * The frame's sandbox: what games need (scripts, their own origin's storage, forms,
 * pointer lock, pop-ups, downloads, alerts, orientation lock, presentation), and no top
 * navigation, so a game cannot take the site's tab to another page. allow-same-origin is safe as
 * the games origin is not the site's.
 */
export const GAME_FRAME_SANDBOX = [
  'allow-scripts',
  'allow-same-origin',
  'allow-forms',
  'allow-pointer-lock',
  'allow-popups',
  'allow-downloads',
  'allow-modals',
  'allow-orientation-lock',
  'allow-presentation',
].join(' ');

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
  /** The last score the game posted: the leaderboards are read again and turn to its board. */
  const [scored, setScored] = useState<ScoredBoard | null>(null);
  /** Grows when the game unlocks an achievement: its catalogue is read again. */
  const [unlocks, setUnlocks] = useState(0);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const viewerRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const instructionsId = useId();
  const mustReload = game.needsIsolation && !isDocumentIsolated();
  const isIsolationRefused = mustReload && hasIsolatedParam(window.location.search);
  const isReloading = mustReload && !isIsolationRefused;
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

  // site analytics: a play is the viewer open with the game reporting in, or open 10 s
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
        sendBeacon({ type: 'play', gameId: game.id, seconds });
      }
    };
    addEventListener('message', onMessage);
    addEventListener('pagehide', end);
    return () => {
      removeEventListener('message', onMessage);
      removeEventListener('pagehide', end);
      end();
    };
  }, [game.id]);

  useEffect(() => {
    if (isReloading) {
      window.location.assign(playPath(game.id, true));
    }
  }, [isReloading, game.id]);

  const { playUrl } = game;
  // a subscriber game's grant, renewed in the running frame's address (never its src)
  useGrantRenewal(game.id, playUrl, frameRef);
  const hasFrame = Boolean(playUrl) && !isReloading;

  // focus: the game's frame (once its page is in) or, without a frame, the heading
  const focusFrame = useCallback(() => {
    const frame = frameRef.current;
    frame?.focus({ preventScroll: true });
    // the game's own window: engines such as GameMaker's check that it has focus
    frame?.contentWindow?.focus();
  }, []);
  useEffect(() => {
    if (hasFrame) {
      focusFrame();
    } else {
      headingRef.current?.focus({ preventScroll: true });
    }
  }, [game.id, hasFrame, focusFrame]);
  const hasLoadedRef = useRef(false);
  const handleFrameLoad = () => {
    // the first load only: a game that reloads itself later does not take focus back
    if (!hasLoadedRef.current) {
      hasLoadedRef.current = true;
      focusFrame();
    }
  };

  useCloseOnEscape(onClose);
  const isFrameFocused = useIsFrameFocused(frameRef);

  useEffect(() => {
    if (!playUrl) {
      return undefined;
    }
    return startSdkHost({
      gameId: game.id,
      frameOrigin: new URL(playUrl).origin,
      getFrameWindow: () => frameRef.current?.contentWindow,
      isSignedIn: () => useAuthStore.getState().user !== null,
      onUnlock: () => setUnlocks((count) => count + 1),
      onScore: (board) => setScored((last) => ({ board, version: (last?.version ?? 0) + 1 })),
    });
  }, [game.id, playUrl]);

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

  const isDefaultSize = game.frame.mode === 'default';
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
          <div ref={stageRef} className="game-viewer__stage">
            {/* Chromium's Tab passes over a frame whose page has nothing focusable (a canvas
                game), tabindex or not: this box takes the frame's place in the Tab order and
                hands focus on to it; while the game has focus it steps out of the order, so
                Shift+Tab leaves the game */}
            <div
              className={`game-viewer__box${isFrameFocused ? ' game-viewer__box--focused' : ''}`}
              style={{
                width: isDefaultSize ? '100%' : `${fit.width}px`,
                height: `${fit.height}px`,
              }}
              tabIndex={isFrameFocused ? -1 : 0}
              role="group"
              aria-label={`${game.title} (game)`}
              onFocus={(event) => {
                if (event.target === event.currentTarget) {
                  // after the Tab that focused the box is done: the frame is another site's
                  // (another process), and moving focus into it during that Tab let Chromium
                  // carry the Tab on past it
                  window.setTimeout(focusFrame, 0);
                }
              }}
            >
              <iframe
                ref={frameRef}
                src={playUrl}
                title={`${game.title} (game)`}
                width={isDefaultSize ? '100%' : fit.frameWidth}
                height={fit.frameHeight}
                style={{
                  ...(isDefaultSize ? {} : { width: `${fit.frameWidth}px` }),
                  height: `${fit.frameHeight}px`,
                  ...(fit.scale === 1 ? {} : { transform: `scale(${fit.scale})` }),
                }}
                onLoad={handleFrameLoad}
                allow={gameFrameAllow(game.needsIsolation)}
                sandbox={GAME_FRAME_SANDBOX}
                // the game SDK finds the site's origin from the referrer where the browser has no
                // location.ancestorOrigins (Firefox); the site's own policy sends none
                referrerPolicy="origin"
                className="game-viewer__frame"
              />
            </div>
          </div>
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
      <AchievementsPanel gameId={game.id} version={unlocks} />
      <LeaderboardPanel gameId={game.id} scored={scored} />
      <GamePosts gameId={game.id} />
    </section>
  );
}

/** What a keyboard-only game says on a touch screen (its card and the viewer). */
export const KEYBOARD_ONLY_NOTICE =
  'This game needs a keyboard: it cannot be played on a touch screen.';
