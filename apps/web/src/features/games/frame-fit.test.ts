import { describe, expect, it } from 'vitest';

import { fitFrame, GAME_FRAME_HEIGHT, MIN_FRAME_HEIGHT } from './frame-fit';

const room = (
  width: number,
  height: number,
  more: Partial<Parameters<typeof fitFrame>[1]> = {},
) => ({
  width,
  height,
  isFullscreen: false,
  isUprightPhone: false,
  ...more,
});

describe('fitFrame', () => {
  describe("the spec's frame", () => {
    it('is 100% wide and 800 px high where 800 px fit', () => {
      expect(fitFrame({ mode: 'default' }, room(1080, 950))).toEqual({
        width: 1080,
        height: GAME_FRAME_HEIGHT,
        frameWidth: 1080,
        frameHeight: GAME_FRAME_HEIGHT,
        scale: 1,
      });
    });

    it('takes the height the window leaves where 800 px do not fit (1280×800 under a bar)', () => {
      expect(fitFrame({ mode: 'default' }, room(1080, 690.6))).toMatchObject({
        width: 1080,
        height: 690,
        scale: 1,
      });
    });

    it('is a 16:9 box on a phone held upright', () => {
      expect(fitFrame({ mode: 'default' }, room(390, 700, { isUprightPhone: true }))).toMatchObject(
        { width: 390, height: 219 },
      );
    });

    it('never shrinks below the least height', () => {
      expect(fitFrame({ mode: 'default' }, room(800, 40)).height).toBe(MIN_FRAME_HEIGHT);
      expect(fitFrame({ mode: 'default' }, room(200, 700, { isUprightPhone: true })).height).toBe(
        MIN_FRAME_HEIGHT,
      );
    });

    it('takes the whole screen fullscreen', () => {
      expect(fitFrame({ mode: 'default' }, room(844, 390, { isFullscreen: true }))).toMatchObject({
        width: 844,
        height: 390,
        scale: 1,
      });
    });
  });

  describe('a fixed-size game (1200×800)', () => {
    const fixed = { mode: 'fixed', width: 1200, height: 800 } as const;

    it('keeps its own size where it fits, unscaled', () => {
      expect(fitFrame(fixed, room(1800, 900))).toEqual({
        width: 1200,
        height: 800,
        frameWidth: 1200,
        frameHeight: 800,
        scale: 1,
      });
    });

    it('is scaled down to the width: the 1080 px page column shows all of it', () => {
      const fit = fitFrame(fixed, room(1080, 900));
      expect(fit.scale).toBeCloseTo(0.9);
      expect(fit).toMatchObject({ width: 1080, height: 720, frameWidth: 1200, frameHeight: 800 });
    });

    it('is scaled down to the height at 1280×800, the whole canvas inside the room', () => {
      const fit = fitFrame(fixed, room(1080, 640));
      expect(fit.scale).toBeCloseTo(0.8);
      expect(fit.width).toBeLessThanOrEqual(1080);
      expect(fit.height).toBeLessThanOrEqual(640);
      expect(fit.width / fit.height).toBeCloseTo(1.5, 1);
    });

    it('fits a phone held upright (390 px) by its width', () => {
      const fit = fitFrame(fixed, room(390, 700));
      expect(fit.scale).toBeCloseTo(0.325);
      expect(fit).toMatchObject({ width: 390, height: 260 });
    });

    it('is scaled up to fill the screen fullscreen', () => {
      const fit = fitFrame(fixed, room(1920, 1080, { isFullscreen: true }));
      expect(fit.scale).toBeCloseTo(1.35);
      expect(fit).toMatchObject({ width: 1620, height: 1080 });
    });
  });

  describe('a game of a set aspect ratio', () => {
    it('is the widest box of that shape up to 800 px high', () => {
      expect(fitFrame({ mode: 'aspect', width: 4, height: 3 }, room(1080, 950))).toEqual({
        width: 1066,
        height: 800,
        frameWidth: 1066,
        frameHeight: 800,
        scale: 1,
      });
      expect(fitFrame({ mode: 'aspect', width: 16, height: 9 }, room(390, 700))).toMatchObject({
        width: 390,
        height: 219,
      });
    });

    it('keeps a portrait shape inside a short window', () => {
      const fit = fitFrame({ mode: 'aspect', width: 9, height: 16 }, room(1080, 640));
      expect(fit).toMatchObject({ width: 360, height: 640 });
    });

    it('grows past 800 px fullscreen', () => {
      expect(
        fitFrame(
          { mode: 'aspect', width: 9, height: 16 },
          room(1080, 1920, { isFullscreen: true }),
        ),
      ).toMatchObject({ width: 1080, height: 1920 });
    });
  });
});
