import { describe, expect, it } from 'vitest';

import { niceMax } from './chart';

describe('chart axis', () => {
  it('rounds the chart axis up to 1, 2 or 5 times a power of ten', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(13)).toBe(20);
    expect(niceMax(41)).toBe(50);
    expect(niceMax(100)).toBe(100);
  });
});
