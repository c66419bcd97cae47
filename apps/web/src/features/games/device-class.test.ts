import { describe, expect, it } from 'vitest';

import { classifyDevice } from './device-class';

describe('classifyDevice (spec sections 2 and 9)', () => {
  it.each([
    [{ width: 2560, pixelRatio: 2, orientation: undefined }, 'high-res'],
    [{ width: 1920, pixelRatio: 1.25, orientation: undefined }, 'high-res'],
    [{ width: 1920, pixelRatio: 1, orientation: undefined }, 'standard'],
    [{ width: 1200, pixelRatio: 2, orientation: undefined }, 'standard'],
    [{ width: 1199, pixelRatio: 2, orientation: undefined }, 'tablet'],
    [{ width: 768, pixelRatio: 1, orientation: 0 }, 'tablet'],
    [{ width: 767, pixelRatio: 3, orientation: 0 }, 'mobile'],
    [{ width: 375, pixelRatio: 3, orientation: undefined }, 'mobile'],
    [{ width: 844, pixelRatio: 3, orientation: 90 }, 'mobile-landscape'],
    [{ width: 740, pixelRatio: 3, orientation: 90 }, 'mobile-landscape'],
  ] as const)('%j → %s', (input, expected) => {
    expect(classifyDevice(input)).toBe(expected);
  });
});
