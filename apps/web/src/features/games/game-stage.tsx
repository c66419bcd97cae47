import type { GameEntry } from '@portfolio/types/game-host';

import type { FrameFit } from './frame-fit';

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

/**
 * The game's stage in the viewer: the box that takes the frame's place in the Tab order and the
 * game's frame on the games origin, sized as `fit` says. The stage is what goes fullscreen.
 */
export function GameStage({
  game,
  playUrl,
  fit,
  stageRef,
  frameRef,
  isFrameFocused,
  focusFrame,
  onFrameLoad,
}: {
  game: GameEntry;
  playUrl: string;
  fit: FrameFit;
  stageRef: React.RefObject<HTMLDivElement | null>;
  frameRef: React.RefObject<HTMLIFrameElement | null>;
  isFrameFocused: boolean;
  focusFrame: () => void;
  onFrameLoad: () => void;
}) {
  const isDefaultSize = game.frame.mode === 'default';
  return (
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
            // carry the Tab on past it; on a busy machine that Tab can still be in flight
            // then, so a box that still has focus a moment later hands it on again
            const box = event.currentTarget;
            window.setTimeout(focusFrame, 0);
            window.setTimeout(() => {
              if (document.activeElement === box) {
                focusFrame();
              }
            }, 100);
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
          onLoad={onFrameLoad}
          allow={gameFrameAllow(game.needsIsolation)}
          sandbox={GAME_FRAME_SANDBOX}
          // the game SDK finds the site's origin from the referrer where the browser has no
          // location.ancestorOrigins (Firefox); the site's own policy sends none
          referrerPolicy="origin"
          className="game-viewer__frame"
        />
      </div>
    </div>
  );
}
