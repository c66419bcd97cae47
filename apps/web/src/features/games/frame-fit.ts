import type { GameFrameSize } from '@portfolio/types/game-host';

/*
 * The game frame's size: the spec's frame (100% wide, 800 px high) where it fits,
 * else as much of the window as there is; a game of a fixed size gets a frame of exactly that
 * size, scaled down (or up, fullscreen) so the whole canvas shows; a game of a set aspect ratio
 * gets the largest box of that shape. Pure maths, so it is tested without a browser.
 */

/** Spec section 9: the game frame's height. */
export const GAME_FRAME_HEIGHT = 800;

/** The least height a frame gets, however little room the window leaves. */
export const MIN_FRAME_HEIGHT = 150;

/**
 * The shape of a default frame on a phone held upright, for a game that is not portrait: the
 * 16:9 of the landscape games. A frame as tall as the screen would letterbox them with bands.
 */
export const UPRIGHT_FRAME_ASPECT = 16 / 9;

export interface FrameRoom {
  /** The width the frame may take: the viewer's content box (the screen, fullscreen). */
  width: number;
  /** The height it may take: the window below the frame's top with the viewer scrolled into view. */
  height: number;
  /** Fullscreen: the frame takes the screen, and a fixed-size game may be scaled up. */
  isFullscreen: boolean;
  /** A phone held upright showing a default frame for a game that is not portrait. */
  isUprightPhone: boolean;
}

export interface FrameFit {
  /** The box the frame takes on the page, in CSS pixels. */
  width: number;
  height: number;
  /** The frame's own size (the game's window) before scaling: the box's unless scaled. */
  frameWidth: number;
  frameHeight: number;
  /** 1, or the CSS scale applied to a fixed-size game's frame. */
  scale: number;
}

/** The frame's box, its own size and its scale for a game's size in the room there is. */
export function fitFrame(size: GameFrameSize, room: FrameRoom): FrameFit {
  const width = Math.max(1, Math.floor(room.width));
  const height = Math.max(MIN_FRAME_HEIGHT, Math.floor(room.height));
  if (size.mode === 'fixed') {
    const fits = Math.min(width / size.width, height / size.height);
    const scale = room.isFullscreen ? fits : Math.min(1, fits);
    return {
      width: Math.floor(size.width * scale),
      height: Math.floor(size.height * scale),
      frameWidth: size.width,
      frameHeight: size.height,
      scale,
    };
  }
  if (size.mode === 'aspect') {
    const tallest = room.isFullscreen ? height : Math.min(GAME_FRAME_HEIGHT, height);
    const boxWidth = Math.min(width, (tallest * size.width) / size.height);
    const box = {
      width: Math.floor(boxWidth),
      height: Math.floor((boxWidth * size.height) / size.width),
    };
    return { ...box, frameWidth: box.width, frameHeight: box.height, scale: 1 };
  }
  if (room.isFullscreen) {
    return { width, height, frameWidth: width, frameHeight: height, scale: 1 };
  }
  let boxHeight = Math.min(GAME_FRAME_HEIGHT, height);
  if (room.isUprightPhone) {
    boxHeight = Math.max(MIN_FRAME_HEIGHT, Math.min(boxHeight, width / UPRIGHT_FRAME_ASPECT));
  }
  boxHeight = Math.floor(boxHeight);
  return { width, height: boxHeight, frameWidth: width, frameHeight: boxHeight, scale: 1 };
}
