import type { GameCatalogueEntry } from '@portfolio/types';
import { useEffect, useId, useRef, useState } from 'react';

import { useAuthStore } from '../auth/auth-store';
import { useDeviceClass } from './device-class';
import { startSdkHost } from './sdk-host';

/** Spec section 9: the game frame's height. */
export const GAME_FRAME_HEIGHT = 800;

/**
 * The game viewer (spec section 2): Close, the game's frame (100% wide, 800 px high, fullscreen
 * allowed), and its instructions, shown by default. It hosts the game SDK for the open game.
 */
export function GameViewer({ game, onClose }: { game: GameCatalogueEntry; onClose: () => void }) {
  const [isShowingInstructions, setShowingInstructions] = useState(true);
  const deviceClass = useDeviceClass();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const instructionsId = useId();

  useEffect(() => {
    headingRef.current?.focus();
  }, [game.id]);

  useEffect(
    () =>
      startSdkHost({
        gameId: game.id,
        getFrameWindow: () => frameRef.current?.contentWindow,
        isSignedIn: () => useAuthStore.getState().user !== null,
      }),
    [game.id],
  );

  return (
    <section className="game-viewer" aria-labelledby="game-viewer-title">
      <div className="game-viewer__bar">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
        <h1 id="game-viewer-title" ref={headingRef} tabIndex={-1} className="game-viewer__title">
          {game.title}
        </h1>
        <button
          type="button"
          className="button button--ghost"
          aria-expanded={isShowingInstructions}
          aria-controls={instructionsId}
          onClick={() => setShowingInstructions((shown) => !shown)}
        >
          {isShowingInstructions ? 'Hide Instructions' : 'Show Instructions'}
        </button>
      </div>
      <div
        id={instructionsId}
        className="game-viewer__instructions"
        hidden={!isShowingInstructions}
      >
        <h2>Instructions</h2>
        <p>{game.instructions}</p>
      </div>
      <div
        className={`game-viewer__content game-viewer__content--${deviceClass}`}
        data-device-class={deviceClass}
      >
        <iframe
          ref={frameRef}
          src={game.path}
          title={`${game.title} (game)`}
          width="100%"
          height={GAME_FRAME_HEIGHT}
          allow="fullscreen; gamepad; autoplay"
          allowFullScreen
          className="game-viewer__frame"
        />
      </div>
    </section>
  );
}
