import type { GameEntry } from '@portfolio/types/game-host';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';

import { useAuthStore } from '../auth/auth-store';
import { sendBeacon } from '../presence/page-view';
import { type DeviceClass, useDeviceClass } from './device-class';
import { useGrantRenewal } from './grant-renewal';
import { hasIsolatedParam, isDocumentIsolated, playPath } from './isolation';
import { startSdkHost } from './sdk-host';

/** Spec section 9: the game frame's height. */
export const GAME_FRAME_HEIGHT = 800;

/** The least height a fitted frame gets, however little room the screen leaves. */
const MIN_FITTED_HEIGHT = 150;
/** Room kept under a fitted frame, so its bottom edge shows. */
const FITTED_MARGIN = 8;

/** A viewer open this long counts as a play even if the game never reports (issue 20). */
const PLAY_AFTER_SECONDS = 10;

/**
 * The shape of a frame on a screen held upright: the 16:9 of the landscape games (all of the
 * catalogue's). A frame as tall as the screen would letterbox them with a band above and below.
 */
const PORTRAIT_FRAME_ASPECT = 16 / 9;

/**
 * What the frame may do. Fullscreen is allowed here only (an `allowfullscreen` attribute beside
 * it made Chromium warn on every open); cross-origin-isolated lets a threaded build use
 * SharedArrayBuffer when the page is isolated.
 */
export const GAME_FRAME_ALLOW = 'fullscreen; autoplay; gamepad; cross-origin-isolated';

/**
 * Phones and tablets (the spec's device classes below standard) fit the frame to the visible
 * height instead of 800 px, so the whole game, touch controls included, is in view.
 */
function isFitted(deviceClass: DeviceClass): boolean {
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
 * The game viewer (spec section 2): Close, the game's frame on the games origin (100% wide,
 * 800 px high on wider screens, fitted to the visible height on phones and tablets, fullscreen
 * allowed and one tap away), and its instructions. It hosts the game SDK for the open game. A
 * game that needs isolation is opened in an isolated page load if this page is not one.
 */
export function GameViewer({ game, onClose }: { game: GameEntry; onClose: () => void }) {
  const deviceClass = useDeviceClass();
  const [isShowingInstructions, setShowingInstructions] = useState(
    () => !startsCollapsed(deviceClass),
  );
  const frameRef = useRef<HTMLIFrameElement>(null);
  const viewerRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const instructionsId = useId();
  const mustReload = game.needsIsolation && !isDocumentIsolated();
  const isIsolationRefused = mustReload && hasIsolatedParam(window.location.search);
  const isReloading = mustReload && !isIsolationRefused;
  const fittedHeight = useFittedHeight(
    viewerRef,
    frameRef,
    isFitted(deviceClass),
    isShowingInstructions,
  );

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

  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, [game.id]);

  const { playUrl } = game;
  // a subscriber game's grant, renewed in the running frame's address (never its src)
  useGrantRenewal(game.id, playUrl, frameRef);
  useEffect(() => {
    if (!playUrl) {
      return undefined;
    }
    return startSdkHost({
      gameId: game.id,
      frameOrigin: new URL(playUrl).origin,
      getFrameWindow: () => frameRef.current?.contentWindow,
      isSignedIn: () => useAuthStore.getState().user !== null,
    });
  }, [game.id, playUrl]);

  const enterFullscreen = () => {
    frameRef.current?.requestFullscreen().catch((error: unknown) => {
      console.warn('Fullscreen was refused', error);
    });
  };

  return (
    <section
      ref={viewerRef}
      className={`game-viewer game-viewer--${deviceClass}`}
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
          {playUrl && !isReloading && (
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
      {isIsolationRefused && (
        <p className="game-viewer__notice" role="status">
          This game needs a browser that runs it cross-origin isolated (a recent Chrome, Edge or
          Firefox): it may not start here.
        </p>
      )}
      <div
        className={`game-viewer__content game-viewer__content--${deviceClass}`}
        data-device-class={deviceClass}
      >
        {isReloading ? (
          <p className="game-viewer__placeholder">Loading...</p>
        ) : playUrl ? (
          <iframe
            ref={frameRef}
            src={playUrl}
            title={`${game.title} (game)`}
            width="100%"
            height={fittedHeight ?? GAME_FRAME_HEIGHT}
            style={fittedHeight === undefined ? undefined : { height: `${fittedHeight}px` }}
            allow={GAME_FRAME_ALLOW}
            // the game SDK finds the site's origin from the referrer where the browser has no
            // location.ancestorOrigins (Firefox); the site's own policy sends none
            referrerPolicy="origin"
            className="game-viewer__frame"
          />
        ) : (
          <p className="game-viewer__placeholder">This game is not available right now.</p>
        )}
      </div>
    </section>
  );
}

/**
 * The frame's height on phones and tablets. In landscape, what the window leaves below the
 * frame's top once the viewer's bar is scrolled to the top of the screen; upright, a 16:9 box
 * under the site's top bar (within what the window leaves), so a landscape game fills it without
 * bands and Fullscreen or turning the phone makes it bigger. Undefined on wider screens (800 px).
 */
function useFittedHeight(
  viewerRef: React.RefObject<HTMLElement | null>,
  frameRef: React.RefObject<HTMLIFrameElement | null>,
  isActive: boolean,
  isShowingInstructions: boolean,
): number | undefined {
  const [height, setHeight] = useState<number | undefined>();

  useLayoutEffect(() => {
    if (!isActive) {
      return undefined;
    }
    const fit = (scroll: boolean) => {
      const viewer = viewerRef.current;
      const frame = frameRef.current;
      if (!viewer || !frame) {
        return;
      }
      const isLandscape = window.innerWidth > window.innerHeight;
      const viewerTop = viewer.getBoundingClientRect().top + window.scrollY;
      const frameTop = frame.getBoundingClientRect().top + window.scrollY;
      const anchor = isLandscape ? viewerTop : 0;
      const visible = window.innerHeight - (frameTop - anchor) - FITTED_MARGIN;
      const fitted = isLandscape
        ? visible
        : Math.min(visible, frame.getBoundingClientRect().width / PORTRAIT_FRAME_ASPECT);
      setHeight(Math.max(MIN_FITTED_HEIGHT, Math.ceil(fitted)));
      if (scroll) {
        window.scrollTo({ top: anchor, behavior: 'instant' });
      }
    };
    fit(true);
    const onResize = () => fit(true);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [viewerRef, frameRef, isActive, isShowingInstructions]);

  return isActive ? height : undefined;
}
