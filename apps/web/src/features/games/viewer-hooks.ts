import type { GameFrameSize, GameOrientation } from '@portfolio/types/game-host';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

import { fitFrame, type FrameFit, type FrameRoom } from './frame-fit';

/*
 * The game viewer's hooks: its frame's size in the window, who has focus, fullscreen,
 * Escape and the screen's orientation. game-viewer.tsx puts them together.
 */

/** Room kept under a fitted frame, so its bottom edge shows. */
const FITTED_MARGIN = 8;
/** Room kept above the viewer when it is scrolled into view (its scroll-margin-top). */
export const VIEWER_TOP_MARGIN = 8;

/** Escape closes the viewer while focus is on the site's side (a game keeps its own Escape). */
export function useCloseOnEscape(onClose: () => void) {
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // fullscreen: the browser's own Escape leaves fullscreen, the viewer stays
      if (event.key !== 'Escape' || event.defaultPrevented || document.fullscreenElement) {
        return;
      }
      event.preventDefault();
      onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** Whether focus is in the frame (the game's page has it). */
export function useIsFrameFocused(frameRef: React.RefObject<HTMLIFrameElement | null>): boolean {
  const [isFocused, setFocused] = useState(false);
  useEffect(() => {
    // the site's window loses focus to the frame (blur) and gets it back (focus, focusin)
    const update = () => setFocused(document.activeElement === frameRef.current);
    const updateSoon = () => window.setTimeout(update, 0);
    window.addEventListener('blur', updateSoon);
    window.addEventListener('focus', updateSoon);
    document.addEventListener('focusin', updateSoon);
    return () => {
      window.removeEventListener('blur', updateSoon);
      window.removeEventListener('focus', updateSoon);
      document.removeEventListener('focusin', updateSoon);
    };
  }, [frameRef]);
  return isFocused;
}

/** Whether the element is the page's fullscreen element now. */
export function useIsFullscreen(ref: React.RefObject<HTMLElement | null>): boolean {
  const [isFullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const update = () => {
      const isNow = ref.current !== null && document.fullscreenElement === ref.current;
      setFullscreen(isNow);
      if (!isNow) {
        unlockOrientation();
      }
    };
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, [ref]);
  return isFullscreen;
}

/** Whether the window is turned against the game's orientation (never, for 'any'). */
export function useIsWrongOrientation(orientation: GameOrientation): boolean {
  const read = () =>
    orientation !== 'any' &&
    window.innerWidth > window.innerHeight !== (orientation === 'landscape');
  const [isWrong, setWrong] = useState(read);
  useEffect(() => {
    const update = () => setWrong(read());
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
    // read depends on orientation only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orientation]);
  return isWrong;
}

/**
 * Turns the screen to the game's orientation where the browser allows it (Chrome on Android,
 * in fullscreen); elsewhere (iOS, desktops) the promise is refused and nothing changes.
 */
export function lockOrientation(orientation: GameOrientation) {
  if (orientation === 'any') {
    return;
  }
  const screenOrientation: unknown = window.screen.orientation;
  if (
    typeof screenOrientation === 'object' &&
    screenOrientation !== null &&
    'lock' in screenOrientation &&
    typeof screenOrientation.lock === 'function'
  ) {
    Promise.resolve(screenOrientation.lock.call(window.screen.orientation, orientation)).catch(
      () => undefined,
    );
  }
}

function unlockOrientation() {
  try {
    window.screen.orientation?.unlock();
  } catch {
    // not locked, or no Screen Orientation API
  }
}

/**
 * The frame's box, own size and scale (frame-fit.ts) for the room the window leaves: the
 * viewer's content width, and the window's height below the frame's top once the viewer is
 * scrolled to the top of the screen (it opens so, and again when the device is turned);
 * fullscreen, the screen.
 */
export function useFrameFit(options: {
  size: GameFrameSize;
  viewerRef: React.RefObject<HTMLElement | null>;
  contentRef: React.RefObject<HTMLElement | null>;
  isFullscreen: boolean;
  isUpright: boolean;
  layoutKey: string;
}): FrameFit {
  const { size, viewerRef, contentRef, isFullscreen, isUpright, layoutKey } = options;
  const measure = (): FrameRoom => {
    const viewer = viewerRef.current;
    const content = contentRef.current;
    if (isFullscreen || !viewer || !content) {
      return {
        width: window.innerWidth,
        height: window.innerHeight,
        isFullscreen,
        isUprightPhone: false,
      };
    }
    const below = content.getBoundingClientRect().top - viewer.getBoundingClientRect().top;
    return {
      // jsdom lays nothing out: the window's width stands in for an unmeasured box
      width: content.clientWidth || window.innerWidth,
      height: window.innerHeight - VIEWER_TOP_MARGIN - below - FITTED_MARGIN,
      isFullscreen,
      isUprightPhone: isUpright && window.innerHeight > window.innerWidth,
    };
  };
  const [room, setRoom] = useState<FrameRoom | undefined>();

  // opens scrolled into view, and again when the device is turned
  useLayoutEffect(() => {
    const remeasure = () => setRoom(measure());
    let wasLandscape = window.innerWidth > window.innerHeight;
    if (!isFullscreen) {
      viewerRef.current?.scrollIntoView?.({ block: 'start', behavior: 'instant' });
    }
    remeasure();
    const onResize = () => {
      const isLandscape = window.innerWidth > window.innerHeight;
      if (isLandscape !== wasLandscape && !document.fullscreenElement) {
        viewerRef.current?.scrollIntoView?.({ block: 'start', behavior: 'instant' });
      }
      wasLandscape = isLandscape;
      remeasure();
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
    // measure reads the refs and these values
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isFullscreen, isUpright, layoutKey]);

  return fitFrame(
    size,
    room ?? {
      width: window.innerWidth,
      height: window.innerHeight,
      isFullscreen,
      isUprightPhone: false,
    },
  );
}
